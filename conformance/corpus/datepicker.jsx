// react-datepicker: a date input ("Start date") with its popup calendar, opening on March 2026.
import React, { useState, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import DatePicker from 'react-datepicker';
import 'react-datepicker/dist/react-datepicker.css';
import { report } from './report.js';

const iso = (d) => (d ? `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}` : '');

function App() {
  const [date, setDate] = useState(null);
  useEffect(() => report('datepicker', { date: iso(date) }), [date]);
  return (
    <div style={{ margin: 20 }}>
      <label htmlFor="start">Start date</label>
      <DatePicker id="start" selected={date} onChange={setDate} openToDate={new Date(2026, 2, 1)} dateFormat="yyyy-MM-dd" />
    </div>
  );
}

createRoot(document.getElementById('root')).render(<App />);
