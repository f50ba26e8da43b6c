// Package flux follows Flux's kustomize.toolkit.fluxcd.io Kustomization
// objects as kustomize-controller applies them: spec.path resolved against
// the root of the source, built with package kustomize (a folder without a
// kustomization gets one generated, as Flux does), targetNamespace,
// patches, images and components applied, and ${VAR} references
// substituted from postBuild.substitute, postBuild.substituteFrom
// (ConfigMaps and Secrets of the input) and the values the user gives. A
// reference no value is given for stays a placeholder (see Placeholder).
package flux
