"""Print the addresses a phone on the same Wi-Fi can open."""
import socket
import sys

port = sys.argv[1] if len(sys.argv) > 1 else "5000"
addresses = set()
try:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.connect(("192.0.2.1", 9))  # TEST-NET address: no packet is sent by a UDP connect
    addresses.add(s.getsockname()[0])
    s.close()
except OSError:
    pass
print("\nCard Table Companion is starting. Open it on a phone on the same network:")
for a in sorted(addresses) or ["<this computer's address>"]:
    print(f"    http://{a}:{port}/")
print(f"or on this computer: http://127.0.0.1:{port}/\n")
