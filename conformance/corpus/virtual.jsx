// @tanstack/react-virtual: 1,000 rows in a 300 px scroller; only the visible ones are in the DOM.
import React, { useRef, useState, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { useVirtualizer } from '@tanstack/react-virtual';
import { report } from './report.js';

function App() {
  const parent = useRef(null);
  const [picked, setPicked] = useState('');
  const v = useVirtualizer({ count: 1000, getScrollElement: () => parent.current, estimateSize: () => 36, overscan: 2 });
  useEffect(() => report('virtual', { picked }), [picked]);
  return (
    <div style={{ margin: 20 }}>
      <p>Picked: {picked || 'none'}</p>
      <div ref={parent} role="region" aria-label="Rows" style={{ height: 300, width: 320, overflow: 'auto', border: '1px solid #333' }}>
        <div style={{ height: v.getTotalSize(), position: 'relative' }}>
          {v.getVirtualItems().map((it) => (
            <button key={it.key} onClick={() => setPicked(`Row ${it.index + 1}`)}
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: 36, transform: `translateY(${it.start}px)` }}>
              Row {it.index + 1}
            </button>
          ))}
        </div>
      </div>
    </div>
  );
}

createRoot(document.getElementById('root')).render(<App />);
