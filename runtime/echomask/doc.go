// Package echomask masks, in text about to reach the model, what the person
// typed into a credential field. A page may show what it was given (a card
// preview, a "show password" toggle, a confirmation that repeats an account
// number), and a script the person let run may read a field back: the
// model must see neither. A secret is kept only as a keyed hash (a seed made
// per Set, never written anywhere) and its length, so no copy of the text
// outlives the keys that typed it.
//
// Matching ignores separators (white space and - . / ( )), so a card number
// typed as 4242424242424242 is masked where the page shows it as
// "4242 4242 4242 4242". Every character of a match, separators inside it
// included, becomes '*', so a masked string keeps its length in characters
// (and every bound on it holds).
package echomask
