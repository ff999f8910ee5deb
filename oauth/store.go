package oauth

import "context"

// Store keeps the manager's sealed records: one set of tokens per server,
// and one client registration per authorization server and redirect URI,
// so that a dynamic registration is made once and reused. Every record is
// sealed by the manager before it reaches the store; the store sees only
// opaque bytes. Load* report a record that is not there with an error
// that matches fs.ErrNotExist, so that a store needs nothing from this
// package.
type Store interface {
	LoadTokens(ctx context.Context, server string) ([]byte, error)
	SaveTokens(ctx context.Context, server string, sealed []byte) error
	DeleteTokens(ctx context.Context, server string) error
	LoadRegistration(ctx context.Context, issuer, redirectURI string) ([]byte, error)
	SaveRegistration(ctx context.Context, issuer, redirectURI string, sealed []byte) error
	DeleteRegistration(ctx context.Context, issuer, redirectURI string) error
}
