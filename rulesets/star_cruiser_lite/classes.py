"""Ship-class groups used by the rules (digest T-05, T-02, T-03, T-38)."""

from __future__ import annotations

CAPITAL = ("CV", "BB", "BC", "CG", "CA", "LSA", "CVL", "CVE")
ESCORT = ("DD", "DE", "FE", "FF", "SDB", "FTR")
SCOUT = ("SCT",)
WARSHIPS = CAPITAL + ESCORT + SCOUT
NONCOMBATANT = ("MF", "MQ", "MS", "TT", "FT", "SS")
SHIPS = WARSHIPS + NONCOMBATANT
MERCHANTS = ("MF", "MS")  # convoy ownership counts these (E-08: a TT is not one)
SUPPLY_CARRIERS = ("MF", "MS", "MQ")  # "attached merchants" as a supply source (T-32)
FLAGSHIP_CLASSES = ("CV", "BB", "BC")
FLAG_OFFICER_CLASSES = ("CV", "BB", "BC")  # their captains hold Fleet Tactics (DEFAULT-17)
BOMBARD_CLASSES = ("CG", "BC", "BB")
MINE_LAYERS = ("CV", "BB", "BC", "CG", "CA")  # DEFAULT-14
TACTICS_CLASSES = (*WARSHIPS, "MQ", "FT")  # T-03 lists FT; DEFAULT-18 adds MQ
NO_RECON = ("FTR", "SDB", *NONCOMBATANT)
NO_FACILITY_DETECTION = ("FTR", "SDB")
SURVEYORS = ("SS", "SCT")
ESCORT_ORDER_STRICT = ("DD", "FF", "SDB", "FTR")
ESCORT_ORDER_WIDE = ("DD", "DE", "FE", "FF", "SDB", "FTR")  # G-29
SDRONE_MOUNTS = ("CV", "BB", "BC", "CG", "SCT")

# T-02 with DEFAULT-17: the class groups searched for the highest Squadron Tactics.
PRECEDENCE = (
    ("CG", ("CG", "CA", "LSA", "CVL", "CVE")),
    ("DD", ("DD", "DE", "FE")),
    ("FF/SDB", ("FF", "SDB")),
    ("SCT", ("SCT",)),
)

TROOPS = (
    "JBn",
    "Bde(L)",
    "Bde(M)",
    "Bde(H)",
    "PD",
    "Militia",
    "Crew, Warship",
    "Crew, Other",
    "Bde(K)",
    "Militia, Kafer",
    "Crew, Kafer",
)
LEVELS = ("Green", "Regular", "Veteran", "Elite")

# T-30 rows by class or item
BUILD_ROW = {
    "BB": "BB/BC/CV",
    "BC": "BB/BC/CV",
    "CV": "BB/BC/CV",
    "CG": "CG/SCT/CVL/LSA/CA",
    "SCT": "CG/SCT/CVL/LSA/CA",
    "CVL": "CG/SCT/CVL/LSA/CA",
    "LSA": "CG/SCT/CVL/LSA/CA",
    "CA": "CG/SCT/CVL/LSA/CA",
    "SDB": "SDB/FF/DE/DD/FE",
    "FF": "SDB/FF/DE/DD/FE",
    "DE": "SDB/FF/DE/DD/FE",
    "DD": "SDB/FF/DE/DD/FE",
    "FE": "SDB/FF/DE/DD/FE",
    "FTR": "FTR",
    "TT": "TT",
    "FT": "FT/CVE",
    "CVE": "FT/CVE",
    "MF": "MF",
    "MS": "MS",
    "MQ": "MQ",
    "SS": "SS",
    "JBn": "JBn",
    "Bde(L)": "Bde(L)",
    "Bde(M)": "Bde(M)",
    "Bde(H)": "Bde(H)",
    "PD": "PD",
}
# T-30 rows whose product is not a unit of the catalog
ITEMS = ("ASB", "LP", "SD", "FB", "mines", "sDrn", "mPak", "SubD")
CORE_ONLY = ("sDrn", "SubD")


def is_warship(code: str) -> bool:
    return code in WARSHIPS


def is_troop(code: str) -> bool:
    return code in TROOPS


def is_ship(code: str) -> bool:
    return code in SHIPS
