// MUI: Select ("Age"), Switch ("Notifications"), Autocomplete ("Movie") and a Dialog.
import React, { useState, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import Select from '@mui/material/Select';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import FormControlLabel from '@mui/material/FormControlLabel';
import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogTitle from '@mui/material/DialogTitle';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogActions from '@mui/material/DialogActions';
import { report } from './report.js';

const movies = ['The Shawshank Redemption', 'The Godfather', 'The Dark Knight', 'Pulp Fiction', 'Spirited Away', 'Amélie'];

function App() {
  const [age, setAge] = useState('');
  const [notifications, setNotifications] = useState(false);
  const [movie, setMovie] = useState(null);
  const [open, setOpen] = useState(false);
  const [answer, setAnswer] = useState('');
  useEffect(() => report('mui', { age, notifications, movie: movie || '', dialogOpen: open, answer }), [age, notifications, movie, open, answer]);
  const close = (a) => () => { setAnswer(a); setOpen(false); };
  return (
    <div style={{ width: 360, margin: 20, display: 'flex', flexDirection: 'column', gap: 16 }}>
      <FormControl fullWidth>
        <InputLabel id="age-label">Age</InputLabel>
        <Select labelId="age-label" id="age" value={age} label="Age" onChange={(e) => setAge(e.target.value)}>
          <MenuItem value={10}>Ten</MenuItem>
          <MenuItem value={20}>Twenty</MenuItem>
          <MenuItem value={30}>Thirty</MenuItem>
        </Select>
      </FormControl>
      <FormControlLabel control={<Switch checked={notifications} onChange={(e) => setNotifications(e.target.checked)} />} label="Notifications" />
      <Autocomplete options={movies} value={movie} onChange={(e, v) => setMovie(v)} renderInput={(params) => <TextField {...params} label="Movie" />} />
      <Button variant="outlined" onClick={() => setOpen(true)}>Delete account</Button>
      <Dialog open={open} onClose={close('dismissed')} aria-labelledby="dlg-title">
        <DialogTitle id="dlg-title">Delete your account?</DialogTitle>
        <DialogContent><DialogContentText>This cannot be undone.</DialogContentText></DialogContent>
        <DialogActions>
          <Button onClick={close('cancel')}>Keep it</Button>
          <Button onClick={close('confirm')}>Delete forever</Button>
        </DialogActions>
      </Dialog>
    </div>
  );
}

createRoot(document.getElementById('root')).render(<App />);
