package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/switchboard-mcp/switchboard/clientconfig"
	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/fswatch"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/jsonschema"
	"github.com/switchboard-mcp/switchboard/mcpclient"
	"github.com/switchboard-mcp/switchboard/mcpserver"
	"github.com/switchboard-mcp/switchboard/settingsfile"
	"github.com/switchboard-mcp/switchboard/sqlite"
	"github.com/switchboard-mcp/switchboard/views"
)

// Shutdown budgets: HTTP first (streams end at once), then the servers,
// whose children get a grace period before they are killed, then the
// servers' last states into the history. Together they stay inside
// shutdownDeadline, the promise that SIGTERM ends the process.
const (
	httpShutdownTimeout  = 2 * time.Second
	callsShutdownTimeout = 2 * time.Second
	fleetShutdownTimeout = 5 * time.Second
	// historyShutdownTimeout bounds writing the servers' last states
	// after they stopped; it is one small transaction.
	historyShutdownTimeout = time.Second
)

// serve runs Switchboard until ctx ends, then shuts down in order: HTTP,
// supervisors (children terminated), server history, database.
func serve(ctx context.Context, cfg serveConfig, getenv func(string) string, stdout, stderr io.Writer) (err error) {
	// Settings expand ${VAR} from the environment, but never into the
	// access token: a project file could otherwise send it to any URL.
	getenv = withoutToken(getenv)
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))

	db, err := sqlite.Open(ctx, cfg.data)
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	token, err := cfg.token.load()
	if err != nil {
		_ = db.Close()
		return err
	}
	if cfg.token.file != "" && looseTokenFile(cfg.token.file) {
		log.Warn("the token file can be read by other users, who could then drive Switchboard; make it private (chmod 600)", "path", cfg.token.file)
	}
	defer func() { err = errors.Join(err, db.Close()) }()

	src, err := loadSources(ctx, cfg, getenv, log)
	if err != nil {
		return err
	}
	if src.demo != nil {
		defer src.demo.stop()
	}

	scope := domain.Scope{User: domain.LocalUser, Workspace: cfg.project}
	editor := &settingsfile.Editor{} // one per process: its lock serializes every settings edit
	serverNotifications := domain.NewServerNotifications()
	// Servers' notifications go to the gateway's clients; their log messages
	// also to the drawers. serverLogs is set below, before any server
	// connects, since it asks the fleet for levels.
	var serverLogs *domain.ServerLogs
	notify := func(n domain.ServerNotification) {
		serverNotifications.Publish(n)
		serverLogs.Add(n)
	}
	// Servers' questions to the person: on the card of the call, or in the
	// drawer for one of no call.
	elicitations := domain.NewElicitations(domain.ElicitationsOptions{Log: log.With("component", "elicitations")})
	var fleet *domain.Fleet
	signIns, err := newSignIns(cfg, db, log.With("component", "oauth"), func(name string) { fleet.AuthChanged(name) })
	if err != nil {
		return err
	}
	fleet = domain.NewFleet(domain.FleetOptions{
		SupervisorOptions: domain.SupervisorOptions{
			Connector: mcpclient.New(mcpclient.Options{Log: log.With("component", "mcpclient"), MaxMessageBytes: cfg.maxMessageBytes, Notifications: notify, Workspace: cfg.project, NoCallAsker: domain.PersonAsker{Elicitations: elicitations}, Auth: signIns}),
			Auth:      signIns,
			Store:     db.ServerStore(),
			Scope:     scope,
			Log:       log.With("component", "supervisor"),
		},
		Editor: editor,
	})

	// History observes the hub before any server attaches, so every
	// server's first state is recorded; it is closed after the fleet (a
	// deferred call, so before the database), keeping the servers' last
	// states.
	history, err := domain.NewHistory(ctx, domain.HistoryOptions{Store: db.HistoryStore(), Scope: scope, Log: log.With("component", "history")})
	if err != nil {
		return err
	}
	history.Record(fleet.Hub())
	defer func() {
		hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), historyShutdownTimeout)
		defer cancel()
		if err := history.Close(hctx); err != nil {
			log.Warn("stop recording server history", "error", err)
		}
	}()

	serverLogs = domain.NewServerLogs(domain.ServerLogsOptions{Levels: fleet, Redactors: fleet, Log: log.With("component", "server_logs")})
	logsCtx, stopLogs := context.WithCancel(ctx)
	defer stopLogs()
	go serverLogs.Follow(logsCtx, fleet.Hub())

	validator := jsonschema.New()
	invocations := domain.NewInvocations(domain.InvocationsOptions{
		Caller:          fleet,
		Catalog:         fleet,
		Store:           db.InvocationStore(),
		Validator:       validator,
		Log:             log.With("component", "invocations"),
		MaxResultBytes:  cfg.resultCap,
		Policies:        domain.NewPolicies(db.PolicyStore()),
		ApprovalTimeout: cfg.approvalTimeout,
		Grants:          db.GrantStore(),
		Elicitations:    elicitations,
	})
	recoverFromStop(ctx, db, invocations, log)
	pruneDone := make(chan struct{})
	go prune(ctx, invocations, history, cfg.retention, log, pruneDone)

	// Attach before serving, so the first page and API answer already list
	// every server (connecting) rather than an empty fleet. A settings file
	// is applied through the reloader, which then follows its edits.
	var reloader *domain.Reloader
	var approvals *domain.Approvals
	if settings := src.settingsPath(); settings != "" {
		load := loadSettings(settings, cfg.project, getenv,
			domain.Gate{UpperBound: cfg.allowedNames, UpperBoundSet: cfg.allowedSet}, db.ApprovalStore())
		if src.demo != nil {
			load = demoUntilFile(settings, src.servers, load)
		}
		reloader = domain.NewReloader(domain.ReloaderOptions{Load: load, Fleet: fleet, Log: log.With("component", "reload")})
		if _, _, err := reloader.Reload(ctx); err != nil {
			return fmt.Errorf("attach servers: %w", err)
		}
		if src.demo != nil {
			go stopDemoWhenReplaced(ctx, reloader, src.demo, log)
		}
		approvals = &domain.Approvals{Store: db.ApprovalStore(), Fleet: fleet, Reloader: reloader,
			User: domain.LocalUser, ProjectRoot: cfg.project, Resolve: settingsfile.ResolvePath}
		// Every source is watched, even one whose directory does not exist
		// yet: the watcher waits for it, so a project's .switchboard/ or
		// the settings file the demo asks for is picked up when created.
		watched := append([]string{settings}, projectFiles(cfg.project)...)
		if real, err := filepath.EvalSymlinks(settings); err == nil && real != settings {
			watched = append(watched, real) // a symlinked file is edited at its target
		}
		w, err := fswatch.Watch(ctx, fswatch.Options{Paths: watched, Log: log.With("component", "watch")})
		if err != nil {
			return fmt.Errorf("watch %s: %w", settings, err)
		}
		defer w.Close()
		go func() {
			for range w.Changes() {
				reloader.Trigger()
			}
		}()
	} else if err := fleet.Attach(ctx, src.servers); err != nil {
		return fmt.Errorf("attach servers: %w", err)
	}
	go startupMemory{Hub: fleet.Hub(), Clock: domain.SystemClock{}, Quiet: startupQuiet}.run(ctx)
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		_ = fleet.Close(context.WithoutCancel(ctx))
		return fmt.Errorf("listen on %s: %w", cfg.addr, err)
	}
	addr := ln.Addr().String()
	signIns.SetRedirectURI(redirectURI(addr))
	if host, _, _ := net.SplitHostPort(addr); !handlers.LoopbackHost(host) {
		log.Warn("listening beyond this machine: anyone who can reach the port and has the access token can drive Switchboard, "+
			"and without TLS the token travels in clear text; put a TLS proxy in front", "addr", addr)
	}
	clientTokens, err := domain.NewClientTokens(ctx, domain.ClientTokensOptions{Store: db.ClientTokenStore(), Log: log.With("component", "client_tokens")})
	if err != nil {
		_ = ln.Close()
		_ = fleet.Close(context.WithoutCancel(ctx))
		return err
	}
	stateKey, err := mcpserver.LoadStateKey(cfg.data)
	if err != nil {
		_ = ln.Close()
		_ = fleet.Close(context.WithoutCancel(ctx))
		return err
	}
	gateway := mcpserver.New(mcpserver.Options{Fleet: fleet, Invocations: invocations, Scope: scope, StateKey: stateKey,
		Log: log.With("component", "gateway"), TokenName: handlers.MCPTokenName, Policies: domain.NewPolicies(db.PolicyStore()),
		Notifications: serverNotifications, Sessions: db.GatewaySessionStore(), LogLevels: serverLogs})
	gctx, stopGateway := context.WithCancel(ctx)
	defer stopGateway()
	go gateway.Run(gctx)
	done := make(chan struct{})
	e := handlers.New(handlers.Options{
		SignIns:        signIns,
		Gateway:        gateway,
		ClientConfigs:  clientconfig.New(clientconfig.Options{Settings: src.path, Editor: editor, Getenv: getenv}),
		ClientTokens:   clientTokens,
		Fleet:          fleet,
		Scope:          scope,
		Invocations:    invocations,
		Elicitations:   elicitations,
		ServerLogs:     serverLogs,
		History:        history,
		CallStats:      db.InvocationStore(),
		Config:         reloader,
		Approvals:      approvals,
		Validator:      validator,
		Preferences:    db.PreferenceStore(),
		Log:            log.With("component", "http"),
		Done:           done,
		AllowedHosts:   hostNames(addr, cfg.addr, cfg.allowedHosts),
		Demo:           views.DemoProps{Active: src.demo != nil, SettingsPath: src.missingPath},
		Token:          token,
		TokenCommand:   tokenCommand(cfg, getenv),
		FrameAncestors: cfg.frameAncestors,
	})
	srv := &http.Server{Handler: e, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	// `switchboard status` finds this instance through the data directory,
	// from the moment the listening line says it is up.
	if err := writeInstance(cfg.data, instanceInfo{URL: browseURL(addr), PID: os.Getpid(), StartedAt: time.Now(), TokenFile: cfg.token.file}); err != nil {
		log.Warn("switchboard status will not find this instance by itself", "error", err)
	}
	// The one place the full sign-in link appears: the page swaps it for a
	// cookie and drops it from the address bar.
	fmt.Fprintf(stdout, "switchboard listening on %s/?token=%s\n", browseURL(addr), token)
	defer func() {
		if err := removeInstance(cfg.data, os.Getpid()); err != nil {
			log.Warn("remove the instance file", "error", err)
		}
	}()

	serveErr := untilStopped(ctx, served, log)
	close(done)
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), httpShutdownTimeout)
	defer cancel()
	gateway.Close(hctx)
	if err := srv.Shutdown(hctx); err != nil {
		log.Warn("http shutdown", "error", err)
	}
	<-pruneDone
	ictx, cancel2 := context.WithTimeout(context.WithoutCancel(ctx), callsShutdownTimeout)
	defer cancel2()
	if err := invocations.Close(ictx); err != nil {
		log.Warn("stop tool calls", "error", err)
	}
	// The servers get a budget of their own, whatever the calls used.
	fctx, cancel3 := context.WithTimeout(context.WithoutCancel(ctx), fleetShutdownTimeout)
	defer cancel3()
	if err := fleet.Close(fctx); err != nil {
		log.Warn("stop servers", "error", err)
	}
	return serveErr
}
