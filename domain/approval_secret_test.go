package domain

import "testing"

func TestRedactWrittenSecretKeepsOnlyReferences(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"empty-stays-empty", "", ""},
		{"literal-secret-hidden", "s3cr3t-value", Redacted},
		{"reference-alone-shown", "${CLIENT_SECRET}", "${CLIENT_SECRET}"},
		{"literal-around-reference-hidden", "x-${AWS_SECRET}-y", Redacted + "${AWS_SECRET}" + Redacted},
		{"adjacent-references-shown", "${A}${B}", "${A}${B}"},
		{"malformed-reference-is-literal", "${not closed", Redacted},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			if got := RedactWrittenSecret(tt.in); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
