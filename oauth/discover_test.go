package oauth_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/switchboard-mcp/switchboard/oauth"
	"github.com/switchboard-mcp/switchboard/oauth/oauthtest"
)

// TestDiscoverConformanceVariants runs discovery against each layout the
// MCP conformance suite's metadata and backcompat scenarios use.
func TestDiscoverConformanceVariants(t *testing.T) {
	cases := []struct {
		name      string
		opts      oauthtest.Options
		issuer    string // path on the origin
		endpoints string // path prefix of the endpoints
		root      bool   // resource is the origin
		legacy    bool
		forbidden []string // paths that must never be fetched
	}{
		{name: "metadata-default", opts: oauthtest.Options{PRM: oauthtest.PRMAdvertised},
			forbidden: []string{"/.well-known/oauth-protected-resource"}},
		{name: "metadata-var1", opts: oauthtest.Options{PRM: oauthtest.PRMPath, AS: oauthtest.ASOpenIDInsert}},
		{name: "metadata-var2", opts: oauthtest.Options{PRM: oauthtest.PRMRoot, IssuerPath: "/tenant1"},
			issuer: "/tenant1", endpoints: "/tenant1", root: true,
			forbidden: []string{"/.well-known/oauth-authorization-server"}},
		{name: "metadata-var3", opts: oauthtest.Options{PRM: oauthtest.PRMCustom, AS: oauthtest.ASOpenIDAppend, IssuerPath: "/tenant1"},
			issuer: "/tenant1", endpoints: "/tenant1"},
		{name: "backcompat-metadata", opts: oauthtest.Options{PRM: oauthtest.PRMNone, IssuerPath: "/oauth", MetadataAtRoot: true},
			issuer: "/oauth", endpoints: "/oauth", legacy: true},
		{name: "backcompat-endpoint-fallback", opts: oauthtest.Options{PRM: oauthtest.PRMNone, AS: oauthtest.ASNone},
			legacy: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := oauthtest.New(t, tc.opts)
			md, _, tok := signIn(t, srv, registered(t, srv), nil)
			o := srv.Origin()
			wantResource := srv.URL()
			if tc.root {
				wantResource = o
			}
			if md.Resource != wantResource || md.Legacy != tc.legacy {
				t.Errorf("resource %q legacy %v, want %q %v", md.Resource, md.Legacy, wantResource, tc.legacy)
			}
			if md.Issuer != o+tc.issuer || md.TokenEndpoint != o+tc.endpoints+"/token" ||
				md.AuthorizationEndpoint != o+tc.endpoints+"/authorize" || md.RegistrationEndpoint != o+tc.endpoints+"/register" {
				t.Errorf("metadata %+v", md)
			}
			for _, p := range tc.forbidden {
				if n := srv.Hits(p); n != 0 {
					t.Errorf("%s was fetched %d times", p, n)
				}
			}
			if !srv.ValidAccessToken(tok.Access) {
				t.Error("the exchanged token does not work")
			}
			if r := mcpPost(t, srv, tok.Access, initializeBody); r.StatusCode != http.StatusOK {
				t.Errorf("MCP with the token answered %d", r.StatusCode)
			}
			for i, q := range srv.AuthorizeRequests() {
				if q.Get("resource") != wantResource {
					t.Errorf("authorization %d resource %q", i, q.Get("resource"))
				}
			}
			for i, tr := range srv.TokenRequests() {
				if tr.Form.Get("resource") != wantResource {
					t.Errorf("token request %d resource %q", i, tr.Form.Get("resource"))
				}
			}
		})
	}
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func TestDiscoverRefusesAnotherResource(t *testing.T) {
	srv := oauthtest.New(t, oauthtest.Options{Resource: "https://evil.example.com/mcp"})
	_, err := oauth.Discover(context.Background(), srv.Client(), srv.URL(), challengeOf(t, srv))
	if !errors.Is(err, oauth.ErrResourceMismatch) {
		t.Fatalf("err = %v, want ErrResourceMismatch", err)
	}
	if n := srv.Counts().Authorize; n != 0 {
		t.Fatalf("%d authorization requests after a mismatch", n)
	}
}

func TestDiscoverRefusesSiblingPath(t *testing.T) {
	// A resource on the same origin whose path is not a segment prefix
	// of the server's (/mc for /mcp) does not cover it.
	srv := oauthtest.New(t, oauthtest.Options{})
	ch := challengeOf(t, srv)
	_, err := oauth.Discover(context.Background(), srv.Client(), srv.Origin()+"/mcpx", ch)
	if !errors.Is(err, oauth.ErrResourceMismatch) {
		t.Fatalf("err = %v, want ErrResourceMismatch", err)
	}
}

func TestDiscoverRefusesWithoutS256(t *testing.T) {
	srv := oauthtest.New(t, oauthtest.Options{PlainPKCEOnly: true})
	_, err := oauth.Discover(context.Background(), srv.Client(), srv.URL(), challengeOf(t, srv))
	if !errors.Is(err, oauth.ErrNoPKCE) {
		t.Fatalf("err = %v, want ErrNoPKCE", err)
	}
	quiet := oauthtest.New(t, oauthtest.Options{NoPKCEMethods: true})
	if _, err := oauth.Discover(context.Background(), quiet.Client(), quiet.URL(), challengeOf(t, quiet)); err != nil {
		t.Fatalf("metadata silent on PKCE: %v", err)
	}
}

func TestDiscoverRefusesPlainHTTPElsewhere(t *testing.T) {
	_, err := oauth.Discover(context.Background(), nil, "http://mcp.example.com/mcp", oauth.Challenge{})
	if !errors.Is(err, oauth.ErrInsecureURL) {
		t.Fatalf("err = %v, want ErrInsecureURL", err)
	}
	_, err = oauth.Discover(context.Background(), nil, "https://mcp.example.com/mcp",
		oauth.Challenge{ResourceMetadata: "http://evil.example.com/prm"})
	if !errors.Is(err, oauth.ErrInsecureURL) {
		t.Fatalf("advertised http metadata: err = %v, want ErrInsecureURL", err)
	}
}

func TestDiscoverCapsBodiesAndRedirects(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("followed a redirect off the origin to %s", r.URL)
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"resource":"` + strings.Repeat("x", 2<<20) + `"}`))
		case "/away":
			http.Redirect(w, r, other.URL+"/prm", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	for _, p := range []string{"/big", "/away"} {
		md, err := oauth.Discover(context.Background(), srv.Client(), srv.URL+"/mcp", oauth.Challenge{ResourceMetadata: srv.URL + p})
		// Neither document is usable, and the origin has no metadata
		// either: the 2025-03-26 default endpoints are all that is left.
		if err != nil || !md.Legacy || md.TokenEndpoint != srv.URL+"/token" {
			t.Errorf("%s: md %+v err %v", p, md, err)
		}
	}
}

func TestDiscoverRefusesLoopbackFromARemoteServer(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:7777/api/v1/servers", "https://localhost.:7777/x",
		"https://api.localhost/x", "https://0.0.0.0:7777/x", "https://[::]:7777/x", "https://[::ffff:127.0.0.1]/x"} {
		_, err := oauth.Discover(context.Background(), nil, "https://mcp.example.com/mcp",
			oauth.Challenge{ResourceMetadata: u})
		if !errors.Is(err, oauth.ErrInsecureURL) {
			t.Errorf("%s: err = %v, want ErrInsecureURL", u, err)
		}
	}
}
