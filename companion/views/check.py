from flask import Blueprint

bp = Blueprint("check", __name__)
