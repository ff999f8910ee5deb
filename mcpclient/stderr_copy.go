package mcpclient

import (
	"bufio"
	"errors"
	"io"
	"os"
	"sync"
)

// stderrReaders are the buffers stderr copies read with while a server is
// writing. A server that is quiet, as nearly all are once started, holds
// none: at a team's 200 servers a buffer each was most of a megabyte that
// sat idle.
var stderrReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 4096) }}

// copyLines copies src to dst one line per Write and ends an unterminated
// last line, so that a line-splitting writer keeps it. Between bursts of
// output it waits for src to become readable without a buffer (see
// awaitReadable) and hands its buffer back.
func copyLines(dst io.Writer, src *os.File, done chan<- struct{}) {
	defer close(done)
	for {
		awaitReadable(src)
		r := stderrReaders.Get().(*bufio.Reader)
		r.Reset(src)
		more := copyBurst(dst, r)
		r.Reset(nil)
		stderrReaders.Put(r)
		if !more {
			return
		}
	}
}

// copyBurst copies lines from r until src has nothing more to read right
// now at a line end, when it reports true, or until src ends, when it
// reports false.
func copyBurst(dst io.Writer, r *bufio.Reader) (more bool) {
	for {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 {
			_, _ = dst.Write(line)
		}
		switch {
		case err == nil:
			if r.Buffered() == 0 {
				return true
			}
			continue
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case len(line) > 0:
			_, _ = dst.Write([]byte{'\n'})
		}
		return false
	}
}
