// Headless UI: a combobox ("Assignee") filtering people as one types.
import React, { useState, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { Combobox, ComboboxInput, ComboboxOptions, ComboboxOption, Label, Field } from '@headlessui/react';
import { report } from './report.js';

const people = ['Wade Cooper', 'Arlene Mccoy', 'Devon Webb', 'Tom Cook', 'Tanya Fox', 'Hellen Schmidt'];

function App() {
  const [selected, setSelected] = useState(null);
  const [query, setQuery] = useState('');
  useEffect(() => report('headlessui', { assignee: selected || '' }), [selected]);
  const filtered = query === '' ? people : people.filter((p) => p.toLowerCase().includes(query.toLowerCase()));
  return (
    <div style={{ width: 320, margin: 20 }}>
      <Field>
        <Label>Assignee</Label>
        <Combobox value={selected} onChange={setSelected} onClose={() => setQuery('')}>
          <ComboboxInput displayValue={(p) => p || ''} onChange={(e) => setQuery(e.target.value)} />
          <ComboboxOptions anchor="bottom start" style={{ background: '#fff', border: '1px solid #333', width: 300 }}>
            {filtered.map((p) => (
              <ComboboxOption key={p} value={p} style={{ padding: 4 }}>{p}</ComboboxOption>
            ))}
          </ComboboxOptions>
        </Combobox>
      </Field>
    </div>
  );
}

createRoot(document.getElementById('root')).render(<App />);
