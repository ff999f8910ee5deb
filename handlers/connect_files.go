package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/views"
)

// ClientConfigFiles reads and edits the AI clients' own config files
// (clientconfig.Files): the same code `switchboard connect` runs.
type ClientConfigFiles interface {
	Path(c domain.ConnectClient) (string, error)
	Inspect(ctx context.Context, c domain.ConnectClient, path string) (domain.ClientConfigState, error)
	Apply(ctx context.Context, c domain.ConnectClient, path string, ch domain.ClientConfigChange) (domain.ClientConfigResult, error)
	Undo(ctx context.Context, path string) (domain.ClientUndoResult, error)
}

// filePanel shows a client's config file panel again (cancel).
func (p *connectPage) filePanel(c echo.Context) error {
	client, err := connectClientParam(c)
	if err != nil {
		return err
	}
	props, _ := p.fileProps(c.Request().Context(), client)
	return p.render(c, "connect file", views.ConnectFileUpdate(props))
}

// fileReview answers the panel's form with the confirmation of what it
// chose: a write and an import, or an undo.
func (p *connectPage) fileReview(c echo.Context) error {
	client, err := connectClientParam(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return echo.ErrBadRequest
	}
	props, st := p.fileProps(c.Request().Context(), client)
	switch {
	case props.Unavailable != "" || props.Error != "":
	case form.Get("undo") != "":
		if st.Backup == "" {
			props.Error = "ConnectFileErrNoBackup"
		} else {
			props.Review = &views.ConnectFileReview{Undo: true}
		}
	default:
		var chosen []string
		if props.CanImport {
			chosen = form["import"]
		}
		if props.Review = views.NewConnectFileReview(st, props.CanWrite && form.Get("write") != "", chosen); props.Review == nil {
			props.Error = "ConnectFileErrNothing"
		}
	}
	return p.render(c, "connect file", views.ConnectFileUpdate(props))
}

// fileApply makes the confirmed change: a new client token written into
// the client's file, and the chosen servers moved into the settings.
func (p *connectPage) fileApply(c echo.Context) error {
	client, err := connectClientParam(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return echo.ErrBadRequest
	}
	ctx := c.Request().Context()
	change := domain.ClientConfigChange{Import: form["import"]}
	write := form.Get("write") != "" && p.issuer != nil
	var notes []views.ConnectFileNote
	path, err := p.files.Path(client)
	if err == nil && !write && len(change.Import) == 0 {
		err = errNothingChosen
	}
	token := ""
	if err == nil && write {
		var secret string
		if token, secret, err = p.createNumbered(ctx, client.ID); err == nil {
			t := p.target(c)
			t.Token = secret
			change.Entry = client.Entry(t)
		}
	}
	if err == nil {
		var res domain.ClientConfigResult
		if res, err = p.files.Apply(ctx, client, path, change); err == nil {
			notes = views.ConnectFileAppliedNotes(path, token, res)
		} else if token != "" {
			// The token was made for the file alone; do not leave it behind.
			if rerr := p.issuer.Revoke(context.WithoutCancel(ctx), token); rerr != nil {
				p.log.Warn("revoke the client token of a failed write", "token", token, "error", rerr)
			}
		}
	}
	props, _ := p.fileProps(ctx, client)
	props.Notes = notes
	if err != nil {
		props.Error = p.fileErrorID("change a client's config file", err)
	} else if token != "" {
		list := p.tokenList(views.ConnectTokensProps{})
		props.Tokens = &list // the new token joins the list above
	}
	return p.render(c, "connect file", views.ConnectFileUpdate(props))
}

// fileUndo restores the client file's newest backup and takes what its
// import added out of the settings again.
func (p *connectPage) fileUndo(c echo.Context) error {
	client, err := connectClientParam(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	var res domain.ClientUndoResult
	path, err := p.files.Path(client)
	if err == nil {
		res, err = p.files.Undo(ctx, path)
	}
	props, _ := p.fileProps(ctx, client)
	if res.Backup != "" {
		props.Notes = views.ConnectFileUndoneNotes(path, res)
	}
	if err != nil {
		props.Error = p.fileErrorID("undo a change to a client's config file", err)
	}
	return p.render(c, "connect file", views.ConnectFileUpdate(props))
}

// fileProps reads the client's file into its panel; a file that cannot
// be read shows why and offers nothing to change.
func (p *connectPage) fileProps(ctx context.Context, c domain.ConnectClient) (views.ConnectFileProps, domain.ClientConfigState) {
	u := views.ConnectFileURLs{
		Review: clientPath(PathUIConnectReview, c.ID), Apply: clientPath(PathUIConnectApply, c.ID),
		Undo: clientPath(PathUIConnectUndo, c.ID), Panel: clientPath(PathUIConnectFile, c.ID),
	}
	path, err := p.files.Path(c)
	if err != nil {
		return views.ConnectFileProps{ClientID: c.ID, ClientName: c.Name, Unavailable: "ConnectFileNoPath", PanelURL: u.Panel}, domain.ClientConfigState{}
	}
	st, err := p.files.Inspect(ctx, c, path)
	props := views.NewConnectFileProps(c, st, p.issuer != nil, u)
	if err != nil {
		p.log.Error("read a client's config file", "client", c.ID, "path", path, "error", err)
		props.Error, props.CanWrite, props.CanImport, props.Servers = "ConnectFileErrRead", false, false, nil
	}
	return props, st
}

// errNothingChosen is a change that would change nothing.
var errNothingChosen = errors.New("nothing chosen")

// fileErrorID is the message a refused or failed panel action shows; a
// failure that is not the person's is logged here, once.
func (p *connectPage) fileErrorID(what string, err error) string {
	switch {
	case errors.Is(err, errNothingChosen):
		return "ConnectFileErrNothing"
	case errors.Is(err, domain.ErrNothingToUndo):
		return "ConnectFileErrNoBackup"
	case errors.Is(err, domain.ErrNotFound):
		return "ConnectFileErrGone"
	case errors.Is(err, domain.ErrNoSettingsFile):
		return "ConnectFileErrNoSettings"
	case errors.Is(err, domain.ErrNoClientConfig):
		return "ConnectFileNoPath"
	}
	p.log.Error(what, "error", err)
	return "ConnectFileErrFailed"
}

// createNumbered makes a client token named after the client; a taken
// name gets a number (cursor-2, cursor-3, …), as the CLI does, since an
// existing token's secret cannot be shown again.
func (p *connectPage) createNumbered(ctx context.Context, id string) (name, secret string, err error) {
	for n := 1; n <= 20; n++ {
		name = id
		if n > 1 {
			name = fmt.Sprintf("%s-%d", id, n)
		}
		_, secret, err = p.issuer.Create(ctx, name)
		if !errors.Is(err, domain.ErrClientTokenExists) {
			return name, secret, err
		}
	}
	return "", "", fmt.Errorf("create a client token for %s: %w", id, err)
}

// connectClientParam is the client the URL names; an unknown one is 404.
func connectClientParam(c echo.Context) (domain.ConnectClient, error) {
	client, ok := domain.FindConnectClient(c.Param(clientParam))
	if !ok {
		return client, echo.ErrNotFound
	}
	return client, nil
}

// clientPath fills pattern's client with id.
func clientPath(pattern, id string) string {
	return strings.Replace(pattern, ":"+clientParam, url.PathEscape(id), 1)
}
