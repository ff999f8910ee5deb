//go:build !unix

package mcpclient

import "os"

// awaitReadable returns at once: the caller's read does the waiting.
func awaitReadable(*os.File) {}
