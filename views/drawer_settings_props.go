package views

import (
	"strconv"

	"github.com/switchboard-mcp/switchboard/domain"
)

// DrawerSettingsProps is the settings form of one server.
type DrawerSettingsProps struct {
	ID            string
	URL           string
	AutoReconnect bool
	// KeepAlive is the field's text: the effective interval in seconds, or
	// what the person typed when it was refused.
	KeepAlive      string
	KeepAliveError Message // empty ID when the value is fine
	// KeepAliveMin and KeepAliveMax are the field's min and max, from the
	// same rule the server checks; the browser cannot say "0 or 5 to 3600",
	// so the help text does.
	KeepAliveMin string
	KeepAliveMax string
	Saved        bool
	AutoID       string
	AutoHelpID   string
	KeepAliveID  string
	KeepHelpID   string
	KeepErrorID  string
	SaveID       string
}

// NewDrawerSettingsProps fills the form with a snapshot's effective
// settings.
func NewDrawerSettingsProps(s domain.Status, url string) DrawerSettingsProps {
	key := ServerKey(s.ServerName)
	return DrawerSettingsProps{
		ID:            DrawerSettingsID(s.ServerName),
		URL:           url,
		AutoReconnect: s.AutoReconnect,
		KeepAlive:     strconv.FormatInt(int64(s.KeepAlive.Seconds()), 10),
		KeepAliveMin:  "0",
		KeepAliveMax:  strconv.Itoa(domain.KeepAliveRange.MaxSeconds()),
		AutoID:        "setting-auto-" + key,
		AutoHelpID:    "setting-auto-help-" + key,
		KeepAliveID:   "setting-keepalive-" + key,
		KeepHelpID:    "setting-keepalive-help-" + key,
		KeepErrorID:   "setting-keepalive-error-" + key,
		SaveID:        "settings-save-" + key,
	}
}

// WithKeepAliveError returns the form as the person submitted it, with
// the refusal beside the field.
func (p DrawerSettingsProps) WithKeepAliveError(auto bool, typed string, msg Message) DrawerSettingsProps {
	p.AutoReconnect = auto
	p.KeepAlive = typed
	p.KeepAliveError = msg
	p.Saved = false
	return p
}

// KeepAliveDescribedBy links the field to its help and, when refused, to
// the error, so a screen reader reads both.
func (p DrawerSettingsProps) KeepAliveDescribedBy() string {
	if p.KeepAliveError.ID != "" {
		return p.KeepHelpID + " " + p.KeepErrorID
	}
	return p.KeepHelpID
}

// DrawerSettingsID is the id of a server's settings form.
func DrawerSettingsID(name string) string { return "drawer-settings-" + ServerKey(name) }

// KeepAliveInvalid is the field's aria-invalid value: "true" once refused.
func (p DrawerSettingsProps) KeepAliveInvalid() string {
	return strconv.FormatBool(p.KeepAliveError.ID != "")
}

// KeepAliveRangeData fills the help text and the range refusal with the
// bounds the server enforces, so no translation can drift from them.
func KeepAliveRangeData() map[string]any {
	return map[string]any{"Min": domain.KeepAliveRange.MinSeconds(), "Max": domain.KeepAliveRange.MaxSeconds()}
}
