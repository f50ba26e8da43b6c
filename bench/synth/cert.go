package synth

// benchCertPEM and benchKeyPEM are a self-signed ECDSA P-256 key pair for
// *.bench.example.com, valid until 2126, made with openssl for these
// manifests only. A fixed pair keeps the output byte-for-byte reproducible
// (a freshly generated key would differ on every run) and it is real, so
// translate's key-pair check passes and the HTTPS listeners are Programmed.
// Never use it for anything but synthetic input.
const benchCertPEM = `-----BEGIN CERTIFICATE-----
MIIBszCCAVmgAwIBAgIUbow9Z/y/CS4NesuoSY4C6oXjiu0wCgYIKoZIzj0EAwIw
HjEcMBoGA1UEAwwTKi5iZW5jaC5leGFtcGxlLmNvbTAgFw0yNjEyMDMwOTIxNDZa
GA8yMTI2MTEwOTA5MjE0NlowHjEcMBoGA1UEAwwTKi5iZW5jaC5leGFtcGxlLmNv
bTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABA1zhvpUJF4qd5E7YfCQIi93pOyw
K9yTOY0vR+1PMflTs+z57M1f/owfNCYZy4S49NtJVI3pLfH8ZE8cxt8TzQajczBx
MB0GA1UdDgQWBBRF5MmVY0cvk2bvoWP4sFGTTj6RCDAfBgNVHSMEGDAWgBRF5MmV
Y0cvk2bvoWP4sFGTTj6RCDAPBgNVHRMBAf8EBTADAQH/MB4GA1UdEQQXMBWCEyou
YmVuY2guZXhhbXBsZS5jb20wCgYIKoZIzj0EAwIDSAAwRQIgFwWULlWdGfD+FSiP
YD8gk1GcgxIon93YmzWE3wcYTcACIQCwgLYs9hOuOyF3MZHc4oTWeGYNDYHtEMNt
pCi5pPtk7A==
-----END CERTIFICATE-----
`

const benchKeyPEM = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgg5p+u+FGo8MwOG7Y
0BPuqSUusnX9Hc2NR0uf+XgYE2ehRANCAAQNc4b6VCReKneRO2HwkCIvd6TssCvc
kzmNL0ftTzH5U7Ps+ezNX/6MHzQmGcuEuPTbSVSN6S3x/GRPHMbfE80G
-----END PRIVATE KEY-----
`
