//go:build windows

package serve

const oNoFollow = 0
