package api

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
)

// CheckFailure is the sentence that opens the answer to a failed token
// check (whoami with a token just typed or pasted): which failure it met.
// Only a 401 or a 403 is about the token; an unreachable service, a
// timeout, a certificate that does not verify or a server failure mean the
// token was never judged, and saying "not accepted" then sent people to
// make a new token for a network fault. The error's own sentence follows.
func CheckFailure(err error) string {
	var ae *Error
	if !errors.As(err, &ae) {
		return "The token could not be checked"
	}
	switch ae.Kind {
	case KindUnauthorized:
		return "That token was not accepted (401): it is wrong, expired or revoked"
	case KindForbidden:
		return "That token was recognised but may not do this (403)"
	case KindNetwork:
		if tlsFailure(err) {
			return "The service's TLS certificate could not be verified, so the token was not checked"
		}
		return "The service could not be reached, so the token was not checked"
	case KindTimeout:
		return "The service did not answer in time, so the token was not checked"
	case KindServer:
		return "The service failed (server error), so the token was not checked"
	case KindRateLimited:
		return "The service's rate limit was hit, so the token was not checked"
	case KindCanceled:
		return "The check was canceled"
	}
	return "The token could not be checked"
}

// tlsFailure reports whether a transport error is TLS's: a certificate
// that does not verify (unknown authority, wrong host, expired) or a peer
// that does not speak TLS at all.
func tlsFailure(err error) bool {
	var (
		verify   *tls.CertificateVerificationError
		unknown  x509.UnknownAuthorityError
		host     x509.HostnameError
		invalid  x509.CertificateInvalidError
		record   tls.RecordHeaderError
		alertErr tls.AlertError
	)
	return errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &host) ||
		errors.As(err, &invalid) || errors.As(err, &record) || errors.As(err, &alertErr)
}
