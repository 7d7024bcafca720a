package pagejs

import (
	"github.com/ghostlight-dev/ghostlight/generated/surface"
)
import "context"

// State is a control's state; false flags are omitted from JSON.
type State struct {
	Disabled bool `json:"disabled,omitempty"`
	Checked  bool `json:"checked,omitempty"`
	Expanded bool `json:"expanded,omitempty"`
	Selected bool `json:"selected,omitempty"`
	Pressed  bool `json:"pressed,omitempty"`
	Focused  bool `json:"focused,omitempty"`
	Required bool `json:"required,omitempty"`
	ReadOnly bool `json:"readonly,omitempty"`
}

// Item is one perceived element. Role is a raw ARIA role; Name is its
// bounded accessible name (never an editable value).
type Item struct {
	ID         int    `json:"id"`
	Role       string `json:"role"`
	Name       string `json:"name"`
	State      State  `json:"state"`
	Credential bool   `json:"credential,omitempty"`
	Editable   bool   `json:"editable,omitempty"`
	Level      int    `json:"level,omitempty"`
	// Submit and Enter: where activating it, or Enter in it, submits its
	// form (Describe only; Point says the same).
	Submit string `json:"submit,omitempty"`
	Enter  string `json:"enter,omitempty"`
}

// Inspect scopes.
const (
	ScopeControls  = surface.BrowserInspectScopeControls
	ScopeStructure = surface.BrowserInspectScopeStructure
	ScopeAll       = surface.BrowserInspectScopeAll
)

// InspectRequest bounds one inspect walk. Zero NameMax and nil
// CredentialAutocomplete fall back to the World's Limits.
type InspectRequest struct {
	Scope                  string   `json:"scope"`
	MaxItems               int      `json:"maxItems"`
	NameMax                int      `json:"nameMax"`
	CredentialAutocomplete []string `json:"credentialAutocomplete"`
}

// InspectResult lists visible matching elements in document order.
// Truncated says Items stopped at MaxItems. Total counts every matching
// element in the document; past MaxItems the walk goes on without names,
// registration or geometry (reading boxes is the dearest check, about three
// times checkVisibility), so an element past the cap counts when it is
// rendered and not visibility:hidden even if it has zero size.
type InspectResult struct {
	Items     []Item `json:"items"`
	Total     int    `json:"total"`
	Truncated bool   `json:"truncated"`
}

// Inspect walks the rendered document (open shadow roots and same-origin
// frames included) and registers the first MaxItems matches.
func Inspect(ctx context.Context, w *World, req InspectRequest) (InspectResult, error) {
	switch req.Scope {
	case "":
		req.Scope = ScopeControls
	case ScopeControls, ScopeStructure, ScopeAll:
	default:
		return InspectResult{}, &Error{Kind: KindBadRequest, Op: "inspect", Detail: "unknown scope " + req.Scope}
	}
	req.NameMax, req.CredentialAutocomplete = w.limitsFor(req.NameMax, req.CredentialAutocomplete)
	var out InspectResult
	if err := w.invoke(ctx, "inspect", req, &out); err != nil {
		return InspectResult{}, err
	}
	return out, nil
}

// TreeRequest bounds a structure-only document tree. Root 0 is the body.
type TreeRequest struct {
	Root     int `json:"root"`
	MaxDepth int `json:"maxDepth"`
	MaxItems int `json:"maxItems"`
	NameMax  int `json:"nameMax"`
}

// TreeNode is one structural element. Nodes are in pre-order; Depth 1 is
// the first level below the root (a given Root is itself depth 0) and
// Children counts the node's direct children present in the tree.
type TreeNode struct {
	ID       int    `json:"id"`
	Role     string `json:"role"`
	Name     string `json:"name"`
	State    State  `json:"state"`
	Depth    int    `json:"depth"`
	Children int    `json:"children"`
	// Frame is the URL of the cross-origin frame the node is in ("" for
	// the page's own document): a later call under a narrower authority
	// diffs only against what it may see.
	Frame string `json:"frame,omitempty"`
}

// Tree is a bounded structure-only tree. Truncated: MaxItems was reached.
// DepthCut: deeper structure exists below MaxDepth.
type Tree struct {
	Nodes     []TreeNode `json:"nodes"`
	Truncated bool       `json:"truncated"`
	DepthCut  bool       `json:"depthCut"`
}

// DocumentTree returns the bounded structure tree under Root.
func DocumentTree(ctx context.Context, w *World, req TreeRequest) (Tree, error) {
	req.NameMax, _ = w.limitsFor(req.NameMax, nil)
	var out Tree
	if err := w.invoke(ctx, "tree", req, &out); err != nil {
		return Tree{}, err
	}
	return out, nil
}
