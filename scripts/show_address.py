"""Print the addresses a phone on the same Wi-Fi can open (the same ones the share links use)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from companion.sharing import lan_addresses  # noqa: E402

port = sys.argv[1] if len(sys.argv) > 1 else "5000"
public_url = os.environ.get("PUBLIC_URL", "").rstrip("/")
print("\nCard Table Companion is starting. Open it on a phone on the same network:")
if public_url:
    print(f"    {public_url}/")
for a in lan_addresses() or ([] if public_url else ["<this computer's address>"]):
    print(f"    http://{a}:{port}/")
print(f"or on this computer: http://127.0.0.1:{port}/\n")
