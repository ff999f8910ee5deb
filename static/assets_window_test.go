package static

import "testing"

// TestBundlesFitBrotliWindow keeps brotliWindow honest: a bundle larger
// than the window still compresses, but loses matches further back than
// the window reaches. Raising the window past 16 bits costs 8 MB of hash
// table per compression, so split the bundle first if you can.
func TestBundlesFitBrotliWindow(t *testing.T) {
	a, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, as := range a.All() {
		if limit := 1<<brotliWindow - 16; len(as.Body) > limit {
			t.Errorf("%s is %d bytes, more than the %d-byte brotli window", as.Name, len(as.Body), limit)
		}
	}
}
