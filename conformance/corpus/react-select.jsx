// react-select: a searchable single select labelled "Flavour".
import React, { useState, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import Select from 'react-select';
import { report } from './report.js';

const flavours = [
  { value: 'chocolate', label: 'Chocolate' },
  { value: 'strawberry', label: 'Strawberry' },
  { value: 'vanilla', label: 'Vanilla' },
  { value: 'pistachio', label: 'Pistachio' },
  { value: 'salted-caramel', label: 'Salted caramel' },
];

function App() {
  const [flavour, setFlavour] = useState(null);
  useEffect(() => report('react-select', { flavour: flavour ? flavour.value : '' }), [flavour]);
  return (
    <div style={{ width: 320, margin: 20 }}>
      <label htmlFor="flavour-input">Flavour</label>
      <Select inputId="flavour-input" options={flavours} value={flavour} onChange={setFlavour} isSearchable />
      <p>After the select</p>
    </div>
  );
}

createRoot(document.getElementById('root')).render(<App />);
