package main

import (
	"errors"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/settingsfile"
)

// fileProblem turns a failure to load the settings file at path into the
// problem the config banner and GET /api/v1/config show: the parser's own
// error when it has one (with line and column), otherwise the path and
// why the file was refused or could not be read.
func fileProblem(path string, err error) *domain.SettingsError {
	var se *domain.SettingsError
	if errors.As(err, &se) {
		return se
	}
	var fe *settingsfile.FileError
	if errors.As(err, &fe) {
		return &domain.SettingsError{File: path, Message: fe.Reason}
	}
	return &domain.SettingsError{File: path, Message: err.Error()}
}
