// Shoelace web components (shadow DOM): sl-input, sl-select, sl-checkbox, sl-switch.
import { setBasePath } from '@shoelace-style/shoelace/dist/utilities/base-path.js';
import '@shoelace-style/shoelace/dist/components/input/input.js';
import '@shoelace-style/shoelace/dist/components/select/select.js';
import '@shoelace-style/shoelace/dist/components/option/option.js';
import '@shoelace-style/shoelace/dist/components/checkbox/checkbox.js';
import '@shoelace-style/shoelace/dist/components/switch/switch.js';
import { report } from './report.js';

setBasePath('/dist/shoelace');
const root = document.getElementById('root');
root.style.cssText = 'width:360px;margin:20px;display:flex;flex-direction:column;gap:16px';
root.innerHTML = `
<sl-input id="name" label="Full name"></sl-input>
<sl-select id="size" label="Shirt size">
  <sl-option value="small">Small</sl-option>
  <sl-option value="medium">Medium</sl-option>
  <sl-option value="large">Large</sl-option>
</sl-select>
<sl-checkbox id="news">Send newsletter</sl-checkbox>
<sl-switch id="dark">Dark mode</sl-switch>
<p>After the form</p>`;
const $ = (id) => document.getElementById(id);
// lastPress names where the page saw the last pointer press land (the composed path's first element
// with an id, or a shadow part), so a failure says which control took a press.
let lastPress = '';
document.addEventListener('pointerdown', (e) => {
  const el = e.composedPath().find((n) => n instanceof Element && (n.id || n.getAttribute('part')));
  lastPress = el ? (el.id || el.getAttribute('part')) : String(e.target && e.target.tagName);
  send();
}, true);
const send = () => report('shoelace', { name: $('name').value, size: $('size').value, news: $('news').checked, dark: $('dark').checked, lastPress });
for (const id of ['name', 'size', 'news', 'dark']) {
  $(id).addEventListener('sl-input', send);
  $(id).addEventListener('sl-change', send);
}
Promise.all(['sl-input', 'sl-select', 'sl-option', 'sl-checkbox', 'sl-switch'].map((t) => customElements.whenDefined(t))).then(send);
