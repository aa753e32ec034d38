"""A table beyond this phone: ``links`` (the address other phones reach, QR codes, the live
state they poll) and ``people`` (the same person across tables). Services above
``scoring``; who may record (the edit token, the PIN) is ``companion.access``."""
