// CodeMirror 6 with its basic setup and JavaScript language, labelled "Code".
import { EditorView, basicSetup } from 'codemirror';
import { javascript } from '@codemirror/lang-javascript';
import { report } from './report.js';

const view = new EditorView({
  doc: '',
  parent: document.getElementById('root'),
  extensions: [
    basicSetup,
    javascript(),
    EditorView.contentAttributes.of({ 'aria-label': 'Code' }),
    EditorView.updateListener.of((u) => { if (u.docChanged) report('codemirror', { doc: u.state.doc.toString() }); }),
    EditorView.theme({ '&': { width: '600px', height: '200px', border: '1px solid #333' } }),
  ],
});
report('codemirror', { doc: view.state.doc.toString() });
