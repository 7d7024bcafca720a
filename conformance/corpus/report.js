// Every corpus page reports its widgets' state to the test server on each change: the tests assert on
// what the page holds, not on what Ghostlight says. seq orders reports that arrive out of order.
let seq = 0;
export function report(page, state) {
  seq += 1;
  fetch('/state?page=' + encodeURIComponent(page) + '&seq=' + seq, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(state),
  });
}
