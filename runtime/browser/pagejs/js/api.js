// api.js: the object Go calls methods on. Returned from the install
// function, never stored on any global.
return {
  inspect: envelope(inspect),
  tree: envelope(tree),
  find: envelope(find),
  resolve: envelope(resolveSelector),
  read: envelope(read),
  textPresent: envelope(textPresent),
  locate: envelope(locate),
  describe: envelope(describe),
  setValue: envelope(setValue),
  focus: envelope(focusEl),
  clear: envelope(clearEl),
  focusedEditable: envelope(focusedEditable),
  scrollBy: envelope(scrollByXY),
  reveal: envelope(reveal),
  metrics: envelope(metrics),
  isFileInput: envelope(isFileInput),
  fileInputs: envelope(fileInputs),
  present: envelope(presentId),
  elementObject: elementObject,
};
