// TipTap (ProseMirror): a rich-text editor labelled "Story" with a Bold toolbar button.
import { Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { report } from './report.js';

const bold = document.createElement('button');
bold.textContent = 'Bold';
bold.type = 'button';
const host = document.createElement('div');
host.style.cssText = 'width:500px;min-height:120px;border:1px solid #333;margin:20px';
document.getElementById('root').append(bold, host);

const editor = new Editor({
  element: host,
  extensions: [StarterKit],
  content: '',
  editorProps: { attributes: { role: 'textbox', 'aria-label': 'Story', 'aria-multiline': 'true', style: 'min-height:120px;outline:none' } },
});
const send = () => report('tiptap', { text: editor.getText(), html: editor.getHTML() });
editor.on('update', send);
bold.addEventListener('mousedown', (e) => e.preventDefault()); // keep the editor's focus and selection
bold.addEventListener('click', () => editor.chain().focus().toggleBold().run());
send();
