package tools

// Handlers not written yet answer not_supported. Each moves to its own
// tool_<name>.go file as it is implemented; this file shrinks to nothing.

import (
	"context"

	"github.com/ghostlight-dev/ghostlight/generated/surface"
)

func pending() surface.Outcome {
	return refused(&surface.Refusal{Reason: surface.ReasonNotSupported, Message: "not implemented yet"})
}

func (h *Handler) BrowserClick(ctx context.Context, a *surface.BrowserClickArgs) (*surface.BrowserClickFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserDiagnose(ctx context.Context, a *surface.BrowserDiagnoseArgs) (*surface.BrowserDiagnoseFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserDialog(ctx context.Context, a *surface.BrowserDialogArgs) (*surface.BrowserDialogFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserDrag(ctx context.Context, a *surface.BrowserDragArgs) (*surface.BrowserDragFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserExecute(ctx context.Context, a *surface.BrowserExecuteArgs) (*surface.BrowserExecuteFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserFillForm(ctx context.Context, a *surface.BrowserFillFormArgs) (*surface.BrowserFillFormFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserFind(ctx context.Context, a *surface.BrowserFindArgs) (*surface.BrowserFindFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserFlow(ctx context.Context, a *surface.BrowserFlowArgs) (*surface.BrowserFlowFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserHistory(ctx context.Context, a *surface.BrowserHistoryArgs) (*surface.BrowserHistoryFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserHover(ctx context.Context, a *surface.BrowserHoverArgs) (*surface.BrowserHoverFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserInspect(ctx context.Context, a *surface.BrowserInspectArgs) (*surface.BrowserInspectFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserPressKey(ctx context.Context, a *surface.BrowserPressKeyArgs) (*surface.BrowserPressKeyFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserRead(ctx context.Context, a *surface.BrowserReadArgs) (*surface.BrowserReadFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserRecord(ctx context.Context, a *surface.BrowserRecordArgs) (*surface.BrowserRecordFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserScreenshot(ctx context.Context, a *surface.BrowserScreenshotArgs) (*surface.BrowserScreenshotFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserScroll(ctx context.Context, a *surface.BrowserScrollArgs) (*surface.BrowserScrollFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserSequence(ctx context.Context, a *surface.BrowserSequenceArgs) (*surface.BrowserSequenceFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserTypeText(ctx context.Context, a *surface.BrowserTypeTextArgs) (*surface.BrowserTypeTextFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserUpload(ctx context.Context, a *surface.BrowserUploadArgs) (*surface.BrowserUploadFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserWait(ctx context.Context, a *surface.BrowserWaitArgs) (*surface.BrowserWaitFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) BrowserWindow(ctx context.Context, a *surface.BrowserWindowArgs) (*surface.BrowserWindowFacts, surface.Outcome) {
	return nil, pending()
}

func (h *Handler) PolicyExplain(ctx context.Context, a *surface.PolicyExplainArgs) (*surface.PolicyExplainFacts, surface.Outcome) {
	return nil, pending()
}
