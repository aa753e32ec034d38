from flask import Blueprint

bp = Blueprint("hands", __name__)
