// SortableJS list and board: each list reports its order to the test server
// after every drop (/order?list=ID&v=A,B,...).
import Sortable from 'sortablejs';

function report(el) {
  const v = Array.from(el.children).map((li) => li.dataset.id).join(',');
  fetch('/order?list=' + el.id + '&v=' + v);
}

const lists = Array.from(document.querySelectorAll('[data-sortable]'));
for (const el of lists) {
  Sortable.create(el, {
    group: el.dataset.sortable,
    animation: 150,
    onEnd: (e) => {
      report(e.from);
      if (e.to !== e.from) report(e.to);
      window.dropped = (window.dropped || 0) + 1;
    },
  });
}
