// Package jsonstream reads JSON bodies without decoding them: a Scanner
// splits a body into raw values one at a time (each element of a listing's
// array, every member beside it), checking each value's syntax and whether
// it prints as is in the same pass, so a listing of any size is handled with
// one item in memory; Walk is a listing's walk over it. Limits bound what a
// server may send (an item, a string, a body held whole) and Limiter applies
// them to a body a decoder holds whole. It knows nothing of the service:
// package api words what goes wrong.
package jsonstream
