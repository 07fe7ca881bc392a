//! Fitting the box table into a terminal narrower than its cells, the way
//! twsrt 3.3.3's table library does it, so the two agree on a terminal of
//! the same width: the widest wrappable columns shrink first, level by
//! level, then all wrappable columns share what is still missing.

/// Column widths (padding included) that fit `available` characters, from
/// the natural `widths`. A column that may not wrap keeps its width while
/// the others can make room.
pub fn fit(widths: &[usize], wrapable: &[bool], available: usize) -> Vec<usize> {
    let mut widths = widths.to_vec();
    let mut excess = widths.iter().sum::<usize>().saturating_sub(available);
    while excess > 0 {
        let shrinkable = widths.iter().zip(wrapable).filter(|(_, w)| **w);
        let Some(widest) = shrinkable.clone().map(|(w, _)| *w).max() else {
            break;
        };
        let next = shrinkable.map(|(w, _)| *w).filter(|w| *w != widest).max();
        let step = widest - next.unwrap_or(0);
        if step == 0 {
            break;
        }
        let ratios: Vec<usize> = widths
            .iter()
            .zip(wrapable)
            .map(|(w, ok)| usize::from(*ok && *w == widest))
            .collect();
        let limits = vec![excess.min(step); widths.len()];
        widths = ratio_reduce(excess, &ratios, &limits, &widths);
        excess = widths.iter().sum::<usize>().saturating_sub(available);
    }
    if excess > 0 {
        // Still too wide: every column gives up an even share.
        let ones = vec![1; widths.len()];
        widths = ratio_reduce(excess, &ones, &widths.clone(), &widths);
    }
    widths
}

/// Take `total` from `values` in proportion to `ratios`, at most `limits`
/// from each; each share rounded half to even, as Python's `round` does.
fn ratio_reduce(total: usize, ratios: &[usize], limits: &[usize], values: &[usize]) -> Vec<usize> {
    // A value that may give nothing takes no share of the ratio either.
    let ratios: Vec<usize> = ratios
        .iter()
        .zip(limits)
        .map(|(r, l)| if *l == 0 { 0 } else { *r })
        .collect();
    let mut ratio_left: usize = ratios.iter().sum();
    let mut left = total;
    let mut out = Vec::with_capacity(values.len());
    for ((&ratio, &limit), &value) in ratios.iter().zip(limits).zip(values) {
        if ratio == 0 || ratio_left == 0 {
            out.push(value);
            continue;
        }
        let share = round_half_even(ratio * left, ratio_left).min(limit);
        out.push(value.saturating_sub(share));
        left = left.saturating_sub(share);
        ratio_left -= ratio;
    }
    out
}

fn round_half_even(num: usize, den: usize) -> usize {
    let (q, r) = (num / den, num % den);
    match (2 * r).cmp(&den) {
        std::cmp::Ordering::Greater => q + 1,
        std::cmp::Ordering::Equal => q + (q % 2),
        std::cmp::Ordering::Less => q,
    }
}

/// `text` broken into lines of at most `width` characters: at blanks, a
/// line's trailing blanks dropped where they overflow, a word longer than
/// the line cut with `…`. Each line is a range of character offsets into
/// `text` plus whether it ends in the ellipsis.
pub fn wrap(text: &[char], width: usize) -> Vec<(std::ops::Range<usize>, bool)> {
    let mut breaks = vec![0];
    let mut offset = 0;
    for (start, end) in words(text) {
        let word = text[start..end]
            .iter()
            .rev()
            .skip_while(|c| **c == ' ')
            .count();
        let fits = width.saturating_sub(offset) >= word && offset <= width;
        // A word that does not fit starts the next line; one too long for
        // any line does too, unless it is the first (it is cut later).
        if fits {
            offset += end - start;
        } else if word > width {
            if start > 0 {
                breaks.push(start);
            }
            offset = end - start;
        } else if start > 0 && offset > 0 {
            breaks.push(start);
            offset = end - start;
        }
    }
    breaks.dedup();
    let mut lines = Vec::new();
    for (i, &from) in breaks.iter().enumerate() {
        let mut to = breaks.get(i + 1).copied().unwrap_or(text.len());
        while to - from > width && text[to - 1] == ' ' {
            to -= 1;
        }
        let cut = to - from > width;
        if cut {
            to = from + width.saturating_sub(1);
        }
        lines.push((from..to, cut));
    }
    lines
}

/// Each word with the blanks after it (and, for the first, any before).
fn words(text: &[char]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < text.len() {
        while i < text.len() && text[i] == ' ' {
            i += 1;
        }
        while i < text.len() && text[i] != ' ' {
            i += 1;
        }
        while i < text.len() && text[i] == ' ' {
            i += 1;
        }
        out.push((start, i));
        start = i;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 40-column terminal recording of 3.3.3 (`profiles` of the
    /// inheritance scenario): the name column does not wrap and keeps its
    /// 11, the others shrink to 8.
    #[test]
    fn widest_columns_shrink_first_then_all_together() {
        assert_eq!(
            fit(&[11, 13, 19, 12], &[false, true, true, true], 35),
            [11, 8, 8, 8]
        );
        assert_eq!(
            fit(&[11, 13, 19, 12], &[false, true, true, true], 99),
            [11, 13, 19, 12]
        );
    }

    #[test]
    fn shares_round_half_to_even() {
        assert_eq!(round_half_even(5, 2), 2);
        assert_eq!(round_half_even(7, 2), 4);
        assert_eq!(round_half_even(7, 3), 2);
    }

    fn lines(text: &str, width: usize) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        wrap(&chars, width)
            .into_iter()
            .map(|(r, cut)| {
                let mut line: String = chars[r].iter().collect();
                if cut {
                    line.push('…');
                }
                line
            })
            .collect()
    }

    #[test]
    fn lines_break_at_blanks_and_long_words_are_cut() {
        assert_eq!(lines("base, work, extra", 6), ["base, ", "work, ", "extra"]);
        assert_eq!(lines("extra, base", 6), ["extra,", "base"]);
        assert_eq!(lines("Extends", 6), ["Exten…"]);
        assert_eq!(lines("extra, base", 4), ["ext…", "base"]);
        assert_eq!(lines("work, extra", 11), ["work, extra"]);
        assert_eq!(lines("", 4), [""]);
    }
}
