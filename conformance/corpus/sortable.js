// SortableJS: a plain list of tasks reordered by dragging.
import Sortable from 'sortablejs';
import { report } from './report.js';

const list = document.createElement('ul');
list.style.cssText = 'width:260px;padding:0;margin:20px';
for (const id of ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']) {
  const li = document.createElement('li');
  li.dataset.id = id;
  li.textContent = 'Task ' + id;
  li.style.cssText = 'list-style:none;padding:10px;margin:4px;border:1px solid #888;background:#fff';
  list.append(li);
}
document.getElementById('root').append(list);
const send = () => report('sortable', { order: Array.from(list.children).map((li) => li.dataset.id).join(',') });
Sortable.create(list, { animation: 0, onEnd: send });
send();
