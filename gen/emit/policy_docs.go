package emit

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/ghostlight-dev/ghostlight/gen/ir"
)

// PolicyDocs renders the layer-schema reference from the same IR the
// decoder and the narrowing table come from.
func PolicyDocs(spec *ir.Spec) []byte {
	p := spec.Policy
	var b bytes.Buffer
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("<!-- %s -->\n\n# Ghostlight policy reference\n\n", Header)
	w("A policy layer is a file of plain CUE data: an optional `package` clause, comments, and fields. ")
	w("A one-line file such as `capabilities: execute: \"deny\"` is a whole layer. ")
	w("Every layer unifies with the closed definition `#Policy` in `spec/policy.cue`: an unknown key, a wrong type ")
	w("or a value outside its set is a load error naming the file, line and column. ")
	w("Layers are data: references, expressions, defaults, definitions and imports are refused.\n\n")
	w("A lower layer, and a call's own restrictions, can only narrow what the layers above allow. ")
	w("A lower layer that tries to widen is a load error naming both files and lines, and the server refuses to start. ")
	w("While it runs, a changed file is read again before the next call; each call keeps the authority it started under. ")
	w("A file that becomes invalid leaves the last good authority in force, and `policy_explain` says so.\n\n")
	w("## Layers\n\nFrom the top:\n\n| layer | default file | override | meaning |\n| --- | --- | --- | --- |\n")
	for _, l := range p.Layers {
		path, env := "", ""
		if l.Path != "" {
			path = "`" + l.Path + "`"
		}
		if l.Env != "" {
			env = "env `" + l.Env + "`"
		}
		w("| %s | %s | %s | %s |\n", l.Name, path, env, l.Doc)
	}
	w("\nEach file is optional. An override set to an empty value means the layer has no file; ")
	w("an override naming a file that does not exist is a load error.\n")

	leaves := policyLeaves(p.Fields, "", "", nil, "")
	w("\n## Settings\n\n| key | type | values | default | a lower layer may | meaning |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, l := range leaves {
		def := ""
		if l.field.PolicyDef != "" {
			def = "`" + l.field.PolicyDef + "`"
		}
		w("| `%s` | %s | %s | %s | %s | %s |\n", l.key, policyTypeText(l.field), policyValuesText(l.field), def, narrowText(l), l.field.Doc)
		if l.field.Type == ir.TypeMap { // each entry's own settings, under its key
			for _, sub := range policyLeaves(l.field.Items.Fields, l.pointer+"/PATTERN", l.key+".PATTERN.", nil, l.only) {
				def := ""
				if sub.field.PolicyDef != "" {
					def = "`" + sub.field.PolicyDef + "`"
				}
				w("| `%s` | %s | %s | %s | %s | %s |\n", sub.key, policyTypeText(sub.field), policyValuesText(sub.field), def, narrowText(sub), sub.field.Doc)
			}
		}
	}
	w("\nWhich calls need each capability (from the tools' declarations in `spec/`):\n\n| capability | calls |\n| --- | --- |\n")
	for _, c := range spec.EnumOf("capability").Strings() {
		w("| `%s` | %s |\n", c, strings.Join(capabilityUsers(spec, c), ", "))
	}
	w("\nSections:\n\n")
	for _, s := range p.Fields {
		w("- `%s`: %s\n", s.Name, s.Doc)
	}
	if len(p.AddressPresets) > 0 {
		w("\n## Address presets\n\n")
		w("`hosts.addresses.deny` may name these ranges beside CIDRs and addresses. ")
		w("They are checked on every address a host resolves to, and on an IP address written in a URL:\n\n")
		w("| preset | CIDRs | meaning |\n| --- | --- | --- |\n")
		for _, ap := range p.AddressPresets {
			w("| `%s` | `%s` | %s |\n", ap.Name, strings.Join(ap.CIDRs, "`, `"), ap.Doc)
		}
	}
	w("\n## Signing the organization layer\n\n")
	w("An organization layer may be signed: an ed25519 signature over the file's exact bytes, in the file beside it named with the suffix `%s` ", p.Signature.Suffix)
	w("(standard base64 text or the raw 64 bytes). The public key is pinned by the installation, in `%s` or the file env `%s` names ", p.Signature.KeyPath, p.Signature.KeyEnv)
	w("(a PEM `PUBLIC KEY`, or the base64 of the 32 key bytes); no layer can name a key. ")
	w("With a pinned key, the organization layer must carry a valid signature; a signature that does not verify, ")
	w("or one without a pinned key, refuses to start. `policy_explain` reports the provenance: unsigned, ")
	w("signed and verified (with the key's fingerprint), or signature invalid.\n")
	if len(p.ConfirmDefaults) > 0 {
		w("\n## Default confirmations\n\nWith `confirm: defaults: true` on a layer (or a `sites` entry), actions on controls named with these words wait for the person: ")
		for i, c := range p.ConfirmDefaults {
			if i > 0 {
				w(", ")
			}
			w("`%s`", c)
		}
		w(".\n")
	}
	w("\n## Permanent ceilings\n\nThey hold under every authority, all-open included, and no layer lifts them:\n\n")
	for _, c := range p.Ceilings {
		w("- %s\n", c)
	}
	return b.Bytes()
}

func policyTypeText(f *ir.Field) string {
	switch f.Type {
	case ir.TypeMap:
		return "map (" + f.Format + " → rules)"
	case "array":
		if f.Items.Format != "" {
			return f.Items.Format + " list"
		}
		return "string list"
	case "string":
		if f.Format != "" {
			return "string (" + f.Format + ")"
		}
	}
	return string(f.Type)
}

func policyValuesText(f *ir.Field) string {
	var parts []string
	if f.Enum != nil {
		parts = append(parts, "`"+strings.Join(f.EnumValues(), "`, `")+"`")
	}
	if b := f.Bound; b != nil {
		unit := map[string]string{"string": " characters", "array": " items"}[string(f.Type)]
		switch {
		case b.Min != nil && b.Max != nil && f.Type == "array" && *b.Min == 0:
			parts = append(parts, fmt.Sprintf("at most %d%s", *b.Max, unit))
		case b.Min != nil && b.Max != nil:
			parts = append(parts, fmt.Sprintf("%d–%d%s", *b.Min, *b.Max, unit))
		case b.Max != nil:
			parts = append(parts, fmt.Sprintf("at most %d%s", *b.Max, unit))
		}
	}
	if f.Type == "array" && f.Items.Bound != nil && f.Items.Bound.Max != nil {
		parts = append(parts, fmt.Sprintf("each at most %d characters", *f.Items.Bound.Max))
	}
	return strings.Join(parts, "; ")
}

// capabilityUsers names the tools, branches and fields that need a
// capability.
func capabilityUsers(spec *ir.Spec, c string) []string {
	var out []string
	for _, t := range spec.Tools {
		var branches, fields []string
		for _, b := range t.Branches {
			caps := t.Capabilities
			if b.HasCaps {
				caps = b.Capabilities
			}
			if contains(caps, c) {
				branches = append(branches, b.Name)
			}
			for _, wp := range b.WhenPresent {
				if contains(wp.Add, c) || contains(wp.Set, c) {
					fields = append(fields, b.Name+" with `"+wp.Field+"`")
				}
			}
		}
		for _, wp := range t.WhenPresent {
			if contains(wp.Add, c) || contains(wp.Set, c) {
				fields = append(fields, "with `"+wp.Field+"`")
			}
		}
		whole := len(t.Branches) == 0 && contains(t.Capabilities, c) || len(t.Branches) > 0 && len(branches) == len(t.Branches)
		var why []string
		if !whole {
			why = branches
		}
		why = append(why, fields...)
		switch {
		case whole && len(fields) == 0:
			out = append(out, "`"+t.Name+"`")
		case len(why) > 0:
			out = append(out, "`"+t.Name+"` ("+strings.Join(why, ", ")+")")
		}
	}
	return out
}
