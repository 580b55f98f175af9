// The page's kernel editor: CodeMirror 6 with C++ highlighting (CUDA is C++ to its grammar), line
// numbers, bracket matching, undo, and a diagnostic that marks an error at its line. esbuild bundles
// this file and what it imports into one script (editor.js beside the page), which the page loads
// only when it shows the editor; the script gives the page one function, window.wsEditor.create.
import { EditorState, Compartment } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { syntaxHighlighting, defaultHighlightStyle, HighlightStyle, bracketMatching, indentOnInput, indentUnit } from '@codemirror/language';
import { cpp } from '@codemirror/lang-cpp';
import { setDiagnostics, lintGutter } from '@codemirror/lint';
import { tags } from '@lezer/highlight';

// the dark theme's colours for the same tags (the light theme is CodeMirror's default style)
const darkStyle = HighlightStyle.define([
  { tag: tags.keyword, color: '#c792ea' },
  { tag: [tags.typeName, tags.standard(tags.typeName)], color: '#82aaff' },
  { tag: [tags.number, tags.bool], color: '#f78c6c' },
  { tag: [tags.string, tags.character], color: '#c3e88d' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: '#8a94a6', fontStyle: 'italic' },
  { tag: [tags.processingInstruction, tags.macroName], color: '#ffcb6b' },
  { tag: tags.function(tags.variableName), color: '#89ddff' },
]);

// create(parent, { doc, label, dark, onRun, onChange }): the editor in parent. onRun is called by
// Ctrl+Enter (and Cmd+Enter); onChange with the text after every edit.
function create(parent, opts) {
  const label = new Compartment(), look = new Compartment();
  const looks = (dark) => [
    EditorView.theme({}, { dark }),
    syntaxHighlighting(dark ? darkStyle : defaultHighlightStyle, { fallback: true }),
  ];
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: opts.doc || '',
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), drawSelection(), history(),
        bracketMatching(), indentOnInput(), indentUnit.of('    '), EditorState.tabSize.of(4), cpp(), lintGutter(),
        keymap.of([
          { key: 'Mod-Enter', run: () => { if (opts.onRun) opts.onRun(); return true; } },
          ...defaultKeymap, ...historyKeymap,
        ]),
        label.of(EditorView.contentAttributes.of({ 'aria-label': opts.label || 'Kernel source' })),
        // the text is in the Tab order by its own index, so its scrolling box is reached by keys
        // (axe-core's scrollable-region-focusable: a contenteditable alone is not counted)
        EditorView.contentAttributes.of({ tabindex: '0' }),
        look.of(looks(!!opts.dark)),
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          // an edit clears the old mark: it named a line of the text before
          if (opts.onChange) opts.onChange(u.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    view,
    text: () => view.state.doc.toString(),
    setText(t) { view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: t } }); view.dispatch(setDiagnostics(view.state, [])); },
    setLabel(t) { view.dispatch({ effects: label.reconfigure(EditorView.contentAttributes.of({ 'aria-label': t })) }); },
    setDark(d) { view.dispatch({ effects: look.reconfigure(looks(d)) }); },
    // the error at its line (1-based) and column (1-based; 0: the whole line)
    mark(line, column, message) {
      const doc = view.state.doc, n = Math.min(Math.max(1, line | 0), doc.lines), l = doc.line(n);
      const from = column > 0 ? Math.min(l.from + column - 1, l.to) : l.from;
      const to = column > 0 && from < l.to ? from + 1 : l.to;
      view.dispatch(setDiagnostics(view.state, [{ from, to: Math.max(to, from), severity: 'error', message }]));
      view.dispatch({ selection: { anchor: from }, scrollIntoView: true });
    },
    clearMarks() { view.dispatch(setDiagnostics(view.state, [])); },
    focus: () => view.focus(),
  };
}

window.wsEditor = { create };
