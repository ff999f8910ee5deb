package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
)

// OAuthStore keeps the sealed OAuth records of the oauth package: it sees
// only ciphertext. A missing record is an error matching fs.ErrNotExist.
type OAuthStore struct {
	db *DB
}

// OAuthStore returns the store of sealed sign-ins kept in db.
func (db *DB) OAuthStore() *OAuthStore { return &OAuthStore{db: db} }

// LoadTokens returns the sealed tokens of server.
func (s *OAuthStore) LoadTokens(ctx context.Context, server string) ([]byte, error) {
	var sealed []byte
	err := s.db.read.QueryRowContext(ctx, `SELECT sealed FROM oauth_tokens WHERE server = ?`, server).Scan(&sealed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("load sign-in of %q: %w", server, fs.ErrNotExist)
	}
	if err != nil {
		return nil, fmt.Errorf("load sign-in of %q: %w", server, err)
	}
	return sealed, nil
}

// SaveTokens stores server's sealed tokens, replacing any.
func (s *OAuthStore) SaveTokens(ctx context.Context, server string, sealed []byte) error {
	_, err := s.db.write.ExecContext(ctx,
		`INSERT INTO oauth_tokens (server, sealed) VALUES (?, ?) ON CONFLICT (server) DO UPDATE SET sealed = excluded.sealed`,
		server, sealed)
	if err != nil {
		return fmt.Errorf("save sign-in of %q: %w", server, err)
	}
	return nil
}

// DeleteTokens forgets server's tokens; none stored is no error.
func (s *OAuthStore) DeleteTokens(ctx context.Context, server string) error {
	if _, err := s.db.write.ExecContext(ctx, `DELETE FROM oauth_tokens WHERE server = ?`, server); err != nil {
		return fmt.Errorf("delete sign-in of %q: %w", server, err)
	}
	return nil
}

// LoadRegistration returns the sealed client registered with issuer for
// redirectURI.
func (s *OAuthStore) LoadRegistration(ctx context.Context, issuer, redirectURI string) ([]byte, error) {
	var sealed []byte
	err := s.db.read.QueryRowContext(ctx,
		`SELECT sealed FROM oauth_registrations WHERE issuer = ? AND redirect_uri = ?`, issuer, redirectURI).Scan(&sealed)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("load registration with %q: %w", issuer, fs.ErrNotExist)
	}
	if err != nil {
		return nil, fmt.Errorf("load registration with %q: %w", issuer, err)
	}
	return sealed, nil
}

// SaveRegistration stores a sealed registration, replacing any.
func (s *OAuthStore) SaveRegistration(ctx context.Context, issuer, redirectURI string, sealed []byte) error {
	_, err := s.db.write.ExecContext(ctx,
		`INSERT INTO oauth_registrations (issuer, redirect_uri, sealed) VALUES (?, ?, ?)
		 ON CONFLICT (issuer, redirect_uri) DO UPDATE SET sealed = excluded.sealed`,
		issuer, redirectURI, sealed)
	if err != nil {
		return fmt.Errorf("save registration with %q: %w", issuer, err)
	}
	return nil
}

// DeleteRegistration forgets a registration; none stored is no error.
func (s *OAuthStore) DeleteRegistration(ctx context.Context, issuer, redirectURI string) error {
	if _, err := s.db.write.ExecContext(ctx,
		`DELETE FROM oauth_registrations WHERE issuer = ? AND redirect_uri = ?`, issuer, redirectURI); err != nil {
		return fmt.Errorf("delete registration with %q: %w", issuer, err)
	}
	return nil
}
