package tlstest

import (
	"crypto/tls"
	"io"
	"net"
	"sync"
)

// Proxy accepts TLS connections (mutual TLS when it has client CAs) and forwards each, in
// plaintext, to a backend: in front of the Temporal dev server, a frontend that requires
// TLS. It records the client certificate of every connection.
type Proxy struct {
	// Address is where it listens (127.0.0.1:port).
	Address string
	ln      net.Listener
	backend string

	mu      sync.Mutex
	conns   map[net.Conn]bool
	clients []string // common names of the client certificates, one per connection
	wg      sync.WaitGroup
}

// ProxyOptions configure a proxy.
type ProxyOptions struct {
	// Backend is the plaintext server's host:port.
	Backend string
	// Cert is the server certificate it presents.
	Cert tls.Certificate
	// ClientCAs, when set, makes it require a client certificate issued by one of them.
	ClientCAs *CA
}

// StartProxy listens on a free port of 127.0.0.1.
func StartProxy(o ProxyOptions) (*Proxy, error) {
	cfg := &tls.Config{Certificates: []tls.Certificate{o.Cert}, NextProtos: []string{"h2"}, MinVersion: tls.VersionTLS12}
	if o.ClientCAs != nil {
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
		cfg.ClientCAs = o.ClientCAs.Pool()
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", cfg)
	if err != nil {
		return nil, err
	}
	p := &Proxy{Address: ln.Addr().String(), ln: ln, backend: o.Backend, conns: map[net.Conn]bool{}}
	p.wg.Add(1)
	go p.serve()
	return p, nil
}

func (p *Proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			p.forward(c.(*tls.Conn))
		}()
	}
}

func (p *Proxy) forward(c *tls.Conn) {
	defer c.Close()
	if err := c.Handshake(); err != nil {
		return // a refused client certificate: the client reads the alert
	}
	if certs := c.ConnectionState().PeerCertificates; len(certs) > 0 {
		p.mu.Lock()
		p.clients = append(p.clients, certs[0].Subject.CommonName)
		p.mu.Unlock()
	}
	b, err := net.Dial("tcp", p.backend)
	if err != nil {
		return
	}
	defer b.Close()
	if !p.track(c, b) {
		return
	}
	defer p.untrack(c, b)
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(b, c); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, b); done <- struct{}{} }()
	<-done
}

func (p *Proxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conns == nil {
		return false // closed
	}
	for _, c := range cs {
		p.conns[c] = true
	}
	return true
}

func (p *Proxy) untrack(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cs {
		delete(p.conns, c)
	}
}

// ClientNames lists the common names of the client certificates of the connections
// accepted so far, in order.
func (p *Proxy) ClientNames() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.clients...)
}

// DropConnections closes every open connection, as a restarted frontend or load balancer
// would: clients reconnect, with a new TLS handshake.
func (p *Proxy) DropConnections() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
	}
}

// Close stops listening and closes every connection.
func (p *Proxy) Close() {
	p.ln.Close()
	p.mu.Lock()
	for c := range p.conns {
		c.Close()
	}
	p.conns = nil
	p.mu.Unlock()
	p.wg.Wait()
}
