package pagejs

import (
	"strings"
	"testing"
)

func treeShape(tr Tree) string {
	var b []string
	for _, n := range tr.Nodes {
		b = append(b, strings.Repeat(".", n.Depth)+n.Role+"("+n.Name+")"+string(rune('0'+n.Children)))
	}
	return strings.Join(b, " ")
}

func TestDocumentTree(t *testing.T) {
	p, w := openPage(t, page(`
<header><h1>Shop</h1></header>
<main>
  <section aria-label="Cart"><h2>Cart (1)</h2><ul><li>Item</li></ul><button>Checkout</button></section>
  <article><h2>News</h2><p>Story text</p></article>
  <div style="display:none"><h2>Hidden heading</h2></div>
</main>`))
	ctx := testCtx(t)
	tr, err := DocumentTree(ctx, w, TreeRequest{MaxDepth: 12, MaxItems: 100})
	if err != nil {
		t.Fatal(err)
	}
	want := ".banner()1 ..heading(Shop)0 .main()2 ..region(Cart)2 ...heading(Cart (1))0 ...list()0 ..article()2 ...heading(News)0 ...paragraph(Story text)0"
	if g := treeShape(tr); g != want {
		t.Errorf("tree\n got %s\nwant %s", g, want)
	}
	if tr.Truncated || tr.DepthCut {
		t.Errorf("flags %+v", tr)
	}
	// Depth bound.
	tr2, _ := DocumentTree(ctx, w, TreeRequest{MaxDepth: 2, MaxItems: 100})
	if g := treeShape(tr2); g != ".banner()1 ..heading(Shop)0 .main()2 ..region(Cart)0 ..article()0" || !tr2.DepthCut {
		t.Errorf("depth 2: %s %+v", g, tr2.DepthCut)
	}
	// Item bound.
	tr3, _ := DocumentTree(ctx, w, TreeRequest{MaxDepth: 12, MaxItems: 3})
	if len(tr3.Nodes) != 3 || !tr3.Truncated {
		t.Errorf("items 3: %s", treeShape(tr3))
	}
	// Subtree root.
	var region int
	for _, n := range tr.Nodes {
		if n.Role == "region" {
			region = n.ID
		}
	}
	tr4, err := DocumentTree(ctx, w, TreeRequest{Root: region, MaxDepth: 12, MaxItems: 100})
	if err != nil {
		t.Fatal(err)
	}
	if g := treeShape(tr4); g != "region(Cart)2 .heading(Cart (1))0 .list()0" {
		t.Errorf("subtree %s", g)
	}
	// A structural change shows in the diff.
	mainEval(t, p, `() => {
		document.querySelector('section h2').textContent = 'Cart (2)';
		document.querySelector('article p').remove();
		const h = document.createElement('h2'); h.textContent = 'Offers'; document.querySelector('main').append(h);
	}`)
	tr5, err := DocumentTree(ctx, w, TreeRequest{MaxDepth: 12, MaxItems: 100})
	if err != nil {
		t.Fatal(err)
	}
	d := Diff(tr, tr5)
	if d.Added != 1 || d.Removed != 1 || d.Changed != 1 {
		t.Fatalf("diff %+v", d)
	}
	s := strings.Join(d.Samples, "\n")
	for _, frag := range []string{`~ heading "Cart (1)" -> "Cart (2)" in region "Cart"`, `+ heading "Offers" in main`, `- paragraph "Story text" in article`} {
		if !strings.Contains(s, frag) {
			t.Errorf("samples lack %q:\n%s", frag, s)
		}
	}
	// Root must be a live id.
	_, err = DocumentTree(ctx, w, TreeRequest{Root: 999, MaxDepth: 3})
	mustKind(t, err, KindStale)
}

func TestDiffPure(t *testing.T) {
	a := Tree{Nodes: []TreeNode{
		{Role: "main", Depth: 1}, {Role: "heading", Name: "A", Depth: 2}, {Role: "list", Depth: 2},
		{Role: "heading", Name: "B", Depth: 2}, {Role: "navigation", Depth: 1},
	}}
	if d := Diff(a, a); d.Added+d.Removed+d.Changed != 0 || len(d.Samples) != 0 {
		t.Errorf("self diff %+v", d)
	}
	b := Tree{Nodes: []TreeNode{
		{Role: "main", Depth: 1}, {Role: "heading", Name: "A", Depth: 2}, {Role: "heading", Name: "B", Depth: 2},
		{Role: "heading", Name: "B", Depth: 2}, {Role: "navigation", Depth: 1}, {Role: "list", Depth: 2},
	}}
	d := Diff(a, b)
	// list moved from main to navigation: one removed+added pair with different
	// paths; a duplicate heading B added.
	if d.Added != 2 || d.Removed != 1 || d.Changed != 0 {
		t.Errorf("diff %+v", d)
	}
	var many Tree
	for i := 0; i < 50; i++ {
		many.Nodes = append(many.Nodes, TreeNode{Role: "paragraph", Name: string(rune('a' + i%26)), Depth: 1})
	}
	d = Diff(Tree{}, many)
	if d.Added != 50 || len(d.Samples) != DiffSampleLimit {
		t.Errorf("bounded samples: %d %d", d.Added, len(d.Samples))
	}
	if d := DiffLimited(Tree{}, many, 3); len(d.Samples) != 3 {
		t.Errorf("limited %d", len(d.Samples))
	}
}
