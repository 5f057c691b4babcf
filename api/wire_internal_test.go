package api

import (
	"io"
	"net"
	"testing"
)

// TestAnAnswerFromTheBufferIsEarly drives a wireConn as Go's transport
// does when it hands a connection just put back as idle to a request that
// was waiting for one, before its own look for more (a race the transport
// wins almost always, so it is driven here step by step): the first
// request's answer and the bytes after it come in one read; the
// connection is idle (armed); the second request is written, and its
// answer is what was in the buffer, with no read of the socket. That
// answer is early, and the first request's verdict is wireTaken. In the
// order the transport keeps otherwise (it reads the socket for the second
// answer) nothing is early and the verdict is wireRead.
func TestAnAnswerFromTheBufferIsEarly(t *testing.T) {
	for _, raced := range []bool{true, false} {
		client, server := net.Pipe()
		w := newWireConn(client)
		go func() {
			io.Copy(io.Discard, io.LimitReader(server, 3))
			server.Write([]byte("A+B"))
			io.Copy(io.Discard, io.LimitReader(server, 3))
			server.Write([]byte("C"))
		}()
		buf := make([]byte, 16)
		w.Write([]byte("GET")) // the first request
		if n, _ := w.Read(buf); n != 3 {
			t.Fatalf("read %d bytes", n)
		}
		first := w.arm() // the first answer ended: the connection is idle
		if !raced {
			go w.Read(buf) // the transport's look for more: the socket, as the buffer is empty
		}
		w.Write([]byte("GET")) // the second request
		if raced {
			if !w.early() {
				t.Error("an answer that was in the buffer before its request is not early")
			}
			w.arm() // the second answer (the buffer's) ended
			if e := <-first; e != wireTaken {
				t.Errorf("the first request's verdict is %v, want wireTaken", e)
			}
		} else {
			if e := <-first; e != wireRead {
				t.Errorf("the first request's verdict is %v, want wireRead", e)
			}
		}
		client.Close()
		server.Close()
	}
}
