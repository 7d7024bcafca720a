// dnd-kit sortable: a list of cards whose items are buttons (useSortable's attributes).
import React, { useState, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { DndContext, closestCenter, PointerSensor, KeyboardSensor, useSensor, useSensors } from '@dnd-kit/core';
import { SortableContext, arrayMove, useSortable, verticalListSortingStrategy, sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { report } from './report.js';

function Card({ id }) {
  const { attributes, listeners, setNodeRef, transform, transition } = useSortable({ id });
  const style = { transform: CSS.Transform.toString(transform), transition, padding: 10, margin: 4, border: '1px solid #888', background: '#fff', width: 240 };
  return <div ref={setNodeRef} style={style} {...attributes} {...listeners}>Card {id}</div>;
}

function App() {
  const [items, setItems] = useState(['One', 'Two', 'Three', 'Four', 'Five']);
  const sensors = useSensors(useSensor(PointerSensor), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  useEffect(() => report('dndkit', { order: items.join(',') }), [items]);
  const onDragEnd = ({ active, over }) => {
    if (over && active.id !== over.id) setItems((l) => arrayMove(l, l.indexOf(active.id), l.indexOf(over.id)));
  };
  return (
    <div style={{ margin: 20 }}>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={items} strategy={verticalListSortingStrategy}>
          {items.map((id) => <Card key={id} id={id} />)}
        </SortableContext>
      </DndContext>
    </div>
  );
}

createRoot(document.getElementById('root')).render(<App />);
