"""What every screen of an open campaign shares: save, undo, redo, help."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import Screen

from campaign_tui.ui.commands import PaletteEntry

if TYPE_CHECKING:
    from campaign_tui.core.engine import Outcome
    from campaign_tui.ui.app import CampaignApp
    from campaign_tui.ui.session import Session


class AppScreen(Screen[None]):
    @property
    def capp(self) -> CampaignApp:
        return self.app  # type: ignore[return-value]

    def action_help(self) -> None:
        self.capp.show_help()

    def palette_entries(self) -> list[PaletteEntry]:
        """Context commands for the command palette (besides the declared ones)."""
        return []


# what a side's seat at a hosted table cannot use: looking as another viewer, the privacy
# screen (nobody else is at that keyboard) and the GM's menu
GM_SEAT_ONLY = ("view_as", "privacy", "gm_actions")


def side_seat(session: object) -> bool:
    """A side's seat at a hosted table (it sees and acts for its own side only)."""
    return getattr(session, "own_side", None) is not None


class CampaignScreen(AppScreen):
    @property
    def session(self) -> Session:
        session = self.capp.session
        assert session is not None
        return session

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        session = self.capp.session
        if session is None:
            return True
        if session.read_only and action in ("save", "undo", "redo", "advance", "choose"):
            return None   # shown dimmed: not possible here
        # a side's seat at a hosted table: the GM's and one-screen commands are not shown
        return not (side_seat(session) and action in GM_SEAT_ONLY)

    def action_save(self) -> None:
        self.capp.save()

    def action_undo(self) -> None:
        self.capp.undo()

    def action_redo(self) -> None:
        self.capp.redo()

    def campaign_changed(self, outcome: Outcome) -> None:
        """Called after every committed action."""
