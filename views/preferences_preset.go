package views

import "context"

// Presets are the accepted values of the "preset" preference: whole
// visual styles layered over the light or dark colours by themes.css.
// The first is the default.
var Presets = []string{"material3", "material2", "terminal_classic", "brutalist", "cyberpunk_neon", "glassmorphism", "minimalist_mono"}

// NormalPreset returns preset if it is one of Presets, else the default.
func NormalPreset(preset string) string {
	for _, p := range Presets {
		if p == preset {
			return p
		}
	}
	return Presets[0]
}

// PresetOptions lists the presets for the header's select, the current
// one marked.
func PresetOptions(current string) []Option {
	current = NormalPreset(current)
	out := make([]Option, 0, len(Presets))
	for _, p := range Presets {
		out = append(out, Option{Value: p, Label: Message{ID: "Preset_" + p}, Selected: p == current})
	}
	return out
}

type presetKey struct{}

// WithPreset returns ctx carrying the person's preset. The preference is
// resolved once per request, with the language, and every template of
// that request (the page, a fragment) reads the same value.
func WithPreset(ctx context.Context, preset string) context.Context {
	return context.WithValue(ctx, presetKey{}, NormalPreset(preset))
}

// PresetFromContext returns the request's preset, or the default.
func PresetFromContext(ctx context.Context) string {
	if p, ok := ctx.Value(presetKey{}).(string); ok {
		return p
	}
	return Presets[0]
}
