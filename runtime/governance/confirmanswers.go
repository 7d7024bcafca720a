package governance

import "sync"

// The person's answers to a confirmation (policy confirm): approve once (the
// model's repeat on the same document runs once), approve for this page
// (every such action on this document runs) or refuse (the repeat is
// refused, saying so, once).
const (
	AnswerOnce   = "once"
	AnswerPage   = "page"
	AnswerRefuse = "refuse"
)

// ConfirmVerdict is what the person's answers decide for one action.
type ConfirmVerdict int

const (
	ConfirmAsk     ConfirmVerdict = iota // no answer holds: ask the person
	ConfirmRun                           // approved (an approval once is used up)
	ConfirmRefused                       // refused (said once)
)

// ConfirmAnswers keeps the person's answers per tab (any key naming one),
// per action key (role, name and the URL it submits to, or a download's),
// for the document generation they were given on. The zero value is ready.
type ConfirmAnswers struct {
	mu sync.Mutex
	m  map[string]*confirmState
}

// confirmState is one tab's answers.
type confirmState struct {
	once    map[string]uint64 // action key → document generation approved once
	page    uint64            // the document approved for this page
	pageSet bool
	refused map[string]bool
}

// Decide takes the person's answer for the action key on the tab's
// document of generation gen.
func (c *ConfirmAnswers) Decide(tab, key string, gen uint64) ConfirmVerdict {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.m[tab]
	if st == nil {
		return ConfirmAsk
	}
	if st.pageSet && st.page == gen {
		return ConfirmRun
	}
	if g, ok := st.once[key]; ok {
		delete(st.once, key)
		if g == gen {
			return ConfirmRun
		}
	}
	if st.refused[key] {
		delete(st.refused, key)
		return ConfirmRefused
	}
	return ConfirmAsk
}

// Answer records the person's answer for the action key (any answer but
// AnswerPage and AnswerRefuse approves once).
func (c *ConfirmAnswers) Answer(tab, key string, gen uint64, answer string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*confirmState{}
	}
	st := c.m[tab]
	if st == nil {
		st = &confirmState{once: map[string]uint64{}, refused: map[string]bool{}}
		c.m[tab] = st
	}
	switch answer {
	case AnswerPage:
		st.page, st.pageSet = gen, true
	case AnswerRefuse:
		st.refused[key] = true
	default:
		st.once[key] = gen
	}
}
