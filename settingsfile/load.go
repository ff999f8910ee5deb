package settingsfile

import (
	"bytes"
	"fmt"

	"github.com/switchboard-mcp/switchboard/domain"
)

// Load reads and parses the settings file at path; getenv resolves ${VAR}
// references. A missing file is an error that wraps fs.ErrNotExist, so a
// caller can tell "no settings yet" from a broken file. Anything but a
// regular file of at most MaxFileSize bytes is a *FileError, never a hang.
func Load(path string, getenv func(string) string) (domain.Settings, error) {
	data, err := readFile(path)
	if err != nil {
		return domain.Settings{Path: path}, fmt.Errorf("load settings: %w", err)
	}
	_, body := splitBOM(data)
	set, err := domain.ParseSettings(path, body, getenv)
	if err != nil {
		return set, fmt.Errorf("load settings: %w", err)
	}
	return set, nil
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// splitBOM separates a leading UTF-8 byte order mark, which Windows editors
// may write and JSON parsers refuse, from the JSON after it. Editors do not
// count the mark as a column, so positions in the body stay right.
func splitBOM(data []byte) (bom, body []byte) {
	if bytes.HasPrefix(data, utf8BOM) {
		return data[:len(utf8BOM)], data[len(utf8BOM):]
	}
	return nil, data
}
