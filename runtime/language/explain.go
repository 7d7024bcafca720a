package language

import "fmt"

// Explained words policy_explain: how many capability areas and layers the
// authority in force has, its situation and its note ("" = none).
func Explained(capabilities, layers int, situation, note string) Text {
	s := fmt.Sprintf("Explained %s over %s in force. %s", Plural(capabilities, "capability area", "capability areas"), Plural(layers, "layer", "layers"), situation)
	if note != "" {
		s += " " + note
	}
	return Say(s)
}
