from flask import Blueprint

bp = Blueprint("tables", __name__)
