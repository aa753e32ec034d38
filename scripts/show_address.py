"""`make run`'s first lines: the address a phone on the same Wi-Fi opens, with a QR code of it
printed in the terminal, then the database brought up to date in one quiet line.

    python scripts/show_address.py [--migrate] [PORT]
"""
import contextlib
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from companion.sharing.links import lan_addresses  # noqa: E402


def addresses(port: str) -> list[str]:
    public_url = os.environ.get("PUBLIC_URL", "").rstrip("/")
    found = [f"{public_url}/"] if public_url else []
    return found + [f"http://{a}:{port}/" for a in lan_addresses()]


def show(port: str) -> None:
    found = addresses(port)
    print("\nCard Table Companion. Open it on a phone on the same network:")
    if found:
        import segno

        segno.make(found[0], error="m").terminal(compact=True, border=2)
        for url in found:
            print(f"    {url}")
    else:
        print("    (this computer has no network address: connect it to the Wi-Fi, or set PUBLIC_URL)")
    print(f"or on this computer: http://127.0.0.1:{port}/", flush=True)


def migrate() -> None:
    """flask db upgrade, quietly: one line when all went well, everything when it did not."""
    from flask_migrate import upgrade

    from companion import create_app

    from companion.db.schema_version import NewerDatabase

    noise = io.StringIO()
    try:
        with contextlib.redirect_stderr(noise), contextlib.redirect_stdout(noise):
            app = create_app()
            with app.app_context():
                upgrade()
    except NewerDatabase as error:  # no traceback: the sentence says it all
        sys.exit(f"Not started: {error.message}")
    except BaseException:
        sys.stderr.write(noise.getvalue())
        raise
    print("database up to date", flush=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    port = next((a for a in args if not a.startswith("--")), "5000")
    show(port)
    if "--migrate" in args:
        migrate()
