// @dnd-kit list (sortable) and board (droppable columns): each reports its
// state to the test server after every drop (/order?list=ID&v=A,B,...).
import React, { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { DndContext, PointerSensor, useSensor, useSensors, closestCenter, useDraggable, useDroppable } from '@dnd-kit/core';
import { SortableContext, useSortable, arrayMove, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';

function report(list, ids) {
  fetch('/order?list=' + list + '&v=' + ids.join(','));
}

function Item({ id }) {
  const { attributes, listeners, setNodeRef, transform, transition } = useSortable({ id });
  const style = { transform: CSS.Transform.toString(transform), transition, padding: '10px', margin: '4px', border: '1px solid #888', background: '#fff', width: '200px', touchAction: 'none' };
  return <li ref={setNodeRef} style={style} {...attributes} {...listeners} data-id={id}>{'Item ' + id}</li>;
}

function List() {
  const [items, setItems] = useState(['A', 'B', 'C', 'D', 'E']);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }));
  const end = ({ active, over }) => {
    let next = items;
    if (over && active.id !== over.id) next = arrayMove(items, items.indexOf(active.id), items.indexOf(over.id));
    setItems(next);
    report('list', next);
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={end}>
      <SortableContext items={items} strategy={verticalListSortingStrategy}>
        <ul id="list" style={{ listStyle: 'none', padding: 0 }}>{items.map((id) => <Item key={id} id={id} />)}</ul>
      </SortableContext>
    </DndContext>
  );
}

function Card({ id }) {
  const { attributes, listeners, setNodeRef, transform } = useDraggable({ id });
  const style = { transform: CSS.Translate.toString(transform), padding: '8px', margin: '4px', border: '1px solid #888', background: '#fff', touchAction: 'none' };
  return <div ref={setNodeRef} style={style} {...attributes} {...listeners} data-id={id}>{'Card ' + id}</div>;
}

function Column({ id, cards }) {
  const { setNodeRef, isOver } = useDroppable({ id });
  return (
    <section ref={setNodeRef} aria-label={'Column ' + id} style={{ width: '220px', minHeight: '300px', margin: '8px', padding: '6px', border: '2px solid ' + (isOver ? '#08f' : '#ccc') }}>
      <h2>{'Column ' + id}</h2>
      {cards.map((c) => <Card key={c} id={c} />)}
    </section>
  );
}

function Board() {
  const [cols, setCols] = useState({ todo: ['T1', 'T2', 'T3'], done: ['D1'] });
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }));
  const end = ({ active, over }) => {
    const next = { todo: cols.todo.filter((c) => c !== active.id), done: cols.done.filter((c) => c !== active.id) };
    const to = over ? over.id : (cols.todo.includes(active.id) ? 'todo' : 'done');
    next[to] = next[to].concat([active.id]);
    setCols(next);
    report('todo', next.todo);
    report('done', next.done);
  };
  return (
    <DndContext sensors={sensors} onDragEnd={end}>
      <div style={{ display: 'flex' }}><Column id="todo" cards={cols.todo} /><Column id="done" cards={cols.done} /></div>
    </DndContext>
  );
}

const root = document.getElementById('root');
createRoot(root).render(root.dataset.kind === 'board' ? <Board /> : <List />);
