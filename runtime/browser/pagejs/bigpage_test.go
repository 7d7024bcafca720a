package pagejs

import (
	"fmt"
	"strings"
)

// bigPage has 2,000 buttons and 500 links in a plausible layout: rows of
// wrappers, a nav of links, and some text.
func bigPage() string {
	var b strings.Builder
	b.WriteString(`<header><h1>Big page</h1></header><nav><ul>`)
	for i := 1; i <= 500; i++ {
		fmt.Fprintf(&b, `<li><a href="#l%d">Link %d</a></li>`, i, i)
	}
	b.WriteString(`</ul></nav><main><p>Many controls follow.</p>`)
	for i := 1; i <= 2000; i++ {
		if i%10 == 1 {
			b.WriteString(`<div class="row"><div class="cell">`)
		}
		fmt.Fprintf(&b, `<span class="wrap"><button type="button" data-n="%d">Button %d</button></span> `, i, i)
		if i%10 == 0 {
			b.WriteString(`</div></div>`)
		}
	}
	b.WriteString(`</main>`)
	return page(b.String())
}

// textPage is an article of about 17 KB of prose with page chrome around it.
func textPage() string {
	var b strings.Builder
	b.WriteString(`<header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header><main><article><h1>A long read</h1>`)
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, `<p>Paragraph %d. The quick brown fox jumps over the lazy dog while the river keeps running past the old mill, and the miller counts sacks of flour until evening falls.</p>`, i)
		if i%10 == 9 {
			fmt.Fprintf(&b, `<h2>Section %d</h2>`, i/10+1)
		}
	}
	b.WriteString(`</article></main><footer><p>Footer text</p></footer>`)
	return page(b.String())
}
