// Package deploy holds the manifests that run cmem against current releases
// of its parts (compose, Kubernetes, a Grafana dashboard) and the offline
// test that holds them to the code: images and versions, volumes, health
// checks, and every variable and metric they name.
package deploy
