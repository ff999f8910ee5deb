-- oauth_tokens hold each remote server's OAuth sign-in and
-- oauth_registrations the clients Switchboard registered with an
-- authorization server, one per issuer and redirect URI so a dynamic
-- registration is reused. Both are sealed with AES-256-GCM by the oauth
-- package before they get here (nonce || ciphertext, bound to the row's
-- key); a copy of this file without the key opens nothing.
CREATE TABLE oauth_tokens (
	server TEXT PRIMARY KEY,
	sealed BLOB NOT NULL
);

CREATE TABLE oauth_registrations (
	issuer       TEXT NOT NULL,
	redirect_uri TEXT NOT NULL,
	sealed       BLOB NOT NULL,
	PRIMARY KEY (issuer, redirect_uri)
);
