package ir

import "encoding/json"

// Profile is a vendored class-profile file, as far as gen reads it. Schemas
// and examples stay raw JSON: emitters render them in the file's own key
// order.
type Profile struct {
	ID              string                     `json:"id"`
	State           string                     `json:"state"`
	Title           string                     `json:"title"`
	Summary         string                     `json:"summary"`
	Baseline        string                     `json:"baseline"`
	SandboxContract string                     `json:"sandbox_contract"`
	Objects         map[string]json.RawMessage `json:"objects"`
	Verbs           []*ProfileVerb             `json:"verbs"`
	Properties      []*ProfileProperty         `json:"properties"`
	Facets          []*ProfileFacet            `json:"facets"`
	// ObjectNames lists Objects in file order.
	ObjectNames []string `json:"-"`
}

// ProfileVerb is one verb of a profile.
type ProfileVerb struct {
	ID                   string          `json:"id"`
	Name                 string          `json:"name"`
	Tier                 string          `json:"tier"`
	Since                string          `json:"since"`
	Summary              string          `json:"summary"`
	Facet                string          `json:"facet"`
	Reissue              string          `json:"reissue"`
	SociallyIrreversible bool            `json:"socially_irreversible"`
	Risk                 map[string]bool `json:"risk"`
	DegradesTo           json.RawMessage `json:"degrades_to"`
	Tool                 struct {
		InputSchema json.RawMessage `json:"inputSchema"`
	} `json:"tool"`
	Contract struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
		Content           *struct {
			Requires   []string `json:"requires"`
			MediaTypes []string `json:"media_types"`
		} `json:"content"`
	} `json:"contract"`
	Example struct {
		Request json.RawMessage `json:"request"`
		Result  json.RawMessage `json:"result"`
	} `json:"example"`
}

// ProfileProperty is one property a profile attaches to its objects.
type ProfileProperty struct {
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	Tier       string          `json:"tier"`
	Since      string          `json:"since"`
	Summary    string          `json:"summary"`
	Facet      string          `json:"facet"`
	AttachesTo []string        `json:"attaches_to"`
	DegradesTo json.RawMessage `json:"degrades_to"`
	Contract   json.RawMessage `json:"contract"`
	Example    json.RawMessage `json:"example"`
}

// ProfileFacet is one optional part of a profile.
type ProfileFacet struct {
	ID      string `json:"id"`
	Summary string `json:"summary"`
}

// Verb returns the profile verb of that id, or nil.
func (p *Profile) Verb(id string) *ProfileVerb {
	for _, v := range p.Verbs {
		if v.ID == id {
			return v
		}
	}
	return nil
}

// Claim is a surface's claim to a class profile, with the vendored profile.
type Claim struct {
	// ProfilePath is the vendored file, relative to spec/; ProfileJSON its bytes.
	ProfilePath string
	ProfileJSON []byte
	Profile     *Profile
	Facets      []*FacetClaim    // in the profile's order
	Properties  []*PropertyClaim // in the profile's order
	Objects     []*ObjectClaim   // in the profile's order
	Unsupported []*UnsupportedVerb
	// Readiness maps each Ghostlight readiness to the profile's.
	Readiness  [][2]string
	Extensions []string
	Sandbox    Sandbox
}

// FacetClaim says whether a facet is implemented.
type FacetClaim struct {
	Facet       *ProfileFacet
	Implemented bool
	Doc         string
}

// PropertyClaim says whether a property is implemented and what it rests on.
type PropertyClaim struct {
	Property    *ProfileProperty
	Implemented bool
	Doc         string
	Tool        *Tool // the Ghostlight tool it rests on, when implemented
	Facts       []string
}

// ObjectClaim says how a profile object is realized.
type ObjectClaim struct {
	Name string
	Doc  string
}

// UnsupportedVerb is a verb of a facet not implemented.
type UnsupportedVerb struct {
	Verb *ProfileVerb
	Doc  string
}

// Sandbox names the pinned reference surface.
type Sandbox struct{ Reference, Doc string }

// VerbClaim is what a tool is as a profile verb.
type VerbClaim struct {
	Verb         *ProfileVerb
	ID           string
	RestsOn      []*RestsOn
	Reissue      string
	ReissueDoc   string
	Semantics    string
	Unfixturable []string
}

// RestsOn is one Ghostlight tool a verb runs through the pipeline's child path.
type RestsOn struct {
	Tool   *Tool
	When   string
	Role   string
	Fields [][2]string // Ghostlight field, where its value comes from
	Facts  []string
	Doc    string
}
