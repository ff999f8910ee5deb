package clientconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/switchboard-mcp/switchboard/settingsfile"
)

// manifestSuffix names the record, beside a backup, of what the import
// that made the backup added to Switchboard's settings.
const manifestSuffix = ".imported.json"

// manifest is what an import added: each server's entry as it was
// written, so an undo can tell whether it was edited since.
type manifest struct {
	Settings string                     `json:"settings"`
	Servers  map[string]json.RawMessage `json:"servers"`
}

func writeManifest(backup string, m manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicWrite(backup+manifestSuffix, append(data, '\n'), 0o600)
}

// readManifest reads the record beside backup; none is an empty manifest.
func readManifest(backup string) (manifest, error) {
	var m manifest
	data, err := settingsfile.ReadRegular("import record", backup+manifestSuffix, settingsfile.MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("%s: %w", backup+manifestSuffix, err)
	}
	return m, nil
}
