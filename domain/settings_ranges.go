package domain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// SecondsRange is the accepted values of one numeric per-server key, given
// in seconds. The settings file, the drawer's form and the PATCH API all
// check through it, so the three can never disagree about what a server
// may be given. Bounds keep every value far from time.Duration's limits,
// which is why a checked value converts without overflow.
type SecondsRange struct {
	Key       string        // the settings key, such as "keepAliveSeconds"
	Min, Max  time.Duration // inclusive; Min is above zero
	ZeroIsOff bool          // 0 is accepted too, and turns the feature off
}

// The ranges of Switchboard's numeric keys. They are values, not pointers,
// so no caller can change them for another.
var (
	// KeepAliveRange stops sub-second probes that flap a healthy server and
	// intervals so long a hung server goes unnoticed.
	KeepAliveRange = SecondsRange{Key: "keepAliveSeconds", Min: 5 * time.Second, Max: MaxKeepAlive, ZeroIsOff: true}
	// ConnectTimeoutRange leaves a slow server time to start and gives up on
	// one that never answers within ten minutes.
	ConnectTimeoutRange = SecondsRange{Key: "connectTimeoutSeconds", Min: time.Second, Max: 10 * time.Minute}
	// StartTimeoutRange leaves a stdio server that downloads itself first
	// (npx -y, uvx) half an hour, and asks at least a second of any.
	StartTimeoutRange = SecondsRange{Key: "startTimeoutSeconds", Min: time.Second, Max: 30 * time.Minute}
	// CallTimeoutRange allows calls of up to a day, long enough for batch
	// tools, while a typo cannot make a call wait forever.
	CallTimeoutRange = SecondsRange{Key: "callTimeoutSeconds", Min: time.Second, Max: 24 * time.Hour}
)

// MinSeconds is the smallest accepted value other than 0, in whole seconds.
func (r SecondsRange) MinSeconds() int { return int(r.Min / time.Second) }

// MaxSeconds is the largest accepted value, in whole seconds.
func (r SecondsRange) MaxSeconds() int { return int(r.Max / time.Second) }

// Describe says in English what the key accepts, for API answers and
// settings-file problems.
func (r SecondsRange) Describe() string {
	if r.ZeroIsOff {
		return fmt.Sprintf("0 (off) or from %d to %d seconds", r.MinSeconds(), r.MaxSeconds())
	}
	return fmt.Sprintf("from %d to %d seconds", r.MinSeconds(), r.MaxSeconds())
}

// Seconds checks a number of seconds as written and converts it. The
// check happens on the number itself, before any conversion, so 1e12
// cannot wrap around into a negative duration and 1e-300 cannot round to 0.
// A refusal wraps ErrInvalidSettings.
func (r SecondsRange) Seconds(v float64) (time.Duration, error) {
	if v == 0 && r.ZeroIsOff {
		return 0, nil
	}
	if math.IsNaN(v) || v < r.Min.Seconds() || v > r.Max.Seconds() {
		return 0, r.refuse(strconv.FormatFloat(v, 'g', -1, 64))
	}
	return time.Duration(math.Round(v * float64(time.Second))), nil
}

// Check reports whether a duration already converted (a stored override,
// say) lies within the range.
func (r SecondsRange) Check(d time.Duration) error {
	if d == 0 && r.ZeroIsOff {
		return nil
	}
	if d < r.Min || d > r.Max {
		return r.refuse(strconv.FormatFloat(d.Seconds(), 'g', -1, 64))
	}
	return nil
}

func (r SecondsRange) refuse(got string) error {
	return fmt.Errorf("%q must be %s, got %s: %w", r.Key, r.Describe(), got, ErrInvalidSettings)
}

// secondsRanges are the ranges the settings file is checked against.
func secondsRanges() []SecondsRange {
	return []SecondsRange{KeepAliveRange, ConnectTimeoutRange, StartTimeoutRange, CallTimeoutRange}
}

// rangeFor returns the range of a settings key, if it has one.
func rangeFor(key string) (SecondsRange, bool) {
	for _, r := range secondsRanges() {
		if r.Key == key {
			return r, true
		}
	}
	return SecondsRange{}, false
}

// applyTimings checks the entry's numeric keys and sets them on cfg. A bad
// value returns its offset within raw (the entry's bytes) and a message.
func applyTimings(cfg *ServerConfig, r rawServer, raw []byte) (int64, string) {
	for _, t := range []struct {
		rng SecondsRange
		v   *float64
		dst *time.Duration
	}{
		{KeepAliveRange, r.KeepAliveSeconds, &cfg.KeepAlive},
		{ConnectTimeoutRange, r.ConnectTimeoutSeconds, &cfg.ConnectTimeout},
		{StartTimeoutRange, r.StartTimeoutSeconds, &cfg.StartTimeout},
		{CallTimeoutRange, r.CallTimeoutSeconds, &cfg.CallTimeout},
	} {
		if t.v == nil {
			continue
		}
		d, err := t.rng.Seconds(*t.v)
		if err != nil {
			return valueOffset(raw, t.rng.Key), rangeMessage(t.rng, strconv.FormatFloat(*t.v, 'g', -1, 64))
		}
		*t.dst = d
	}
	return 0, ""
}

// rangeMessage is a settings-file problem for a number outside its range.
func rangeMessage(r SecondsRange, got string) string {
	return fmt.Sprintf("%q must be %s, got %s", r.Key, r.Describe(), got)
}

// valueOffset finds where the value of key starts in an entry's bytes,
// so a problem points at the number, not at the entry. Like
// json.Unmarshal it matches keys without case ("KeepAliveSeconds" sets
// keepAliveSeconds too) and takes the last of repeated keys; 0 when not
// found.
func valueOffset(raw []byte, key string) int64 {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return 0
	}
	var found int64
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return found
		}
		start := skipToValue(raw, dec.InputOffset())
		if k, _ := tok.(string); strings.EqualFold(k, key) {
			found = start
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return found
		}
	}
	return found
}
